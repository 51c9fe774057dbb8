/** A modal keeps Tab inside it: past the last control comes the first, and back. */
export function keepFocusInside(dialog: HTMLElement, e: { shiftKey: boolean; preventDefault(): void }): void {
  const controls = [
    ...dialog.querySelectorAll<HTMLElement>('button, input, textarea, select, a[href], [tabindex]'),
  ].filter((el) => !el.hasAttribute('disabled') && el.tabIndex >= 0 && !el.hidden);
  const first = controls[0];
  const last = controls[controls.length - 1];
  if (!first || !last) return;
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}
