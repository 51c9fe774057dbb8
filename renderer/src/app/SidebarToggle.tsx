/** The toolbar's first button: shows or hides the feeds sidebar (a drawer on narrow windows). */
export function SidebarToggle({ open, onToggle }: { open: boolean; onToggle(): void }) {
  return (
    <button
      type="button"
      className="sidebar-toggle icon-button"
      aria-expanded={open}
      aria-controls="sidebar"
      aria-label={open ? 'Hide the feeds' : 'Show the feeds'}
      title={open ? 'Hide the feeds' : 'Show the feeds'}
      onClick={onToggle}
      data-testid="sidebar-toggle"
    >
      <svg
        width="18"
        height="18"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        aria-hidden="true"
        focusable="false"
      >
        <rect x="3" y="4" width="18" height="16" rx="2" />
        <path d="M9 4v16" />
      </svg>
    </button>
  );
}
