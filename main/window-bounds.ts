/**
 * Where the window opens: the size and place it had, when that place is still on a screen that
 * exists (a laptop unplugged from its monitor must not open Tidings off-screen), else centred on
 * the primary screen. Plain geometry: the glue passes screen.getAllDisplays() work areas in.
 */

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface SavedWindowState {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  maximized?: boolean;
}

export const DEFAULT_SIZE = { width: 1200, height: 800 } as const;
export const MIN_SIZE = { width: 480, height: 400 } as const;

/**
 * How much of the window must lie on one screen for its saved place to count: enough of its top
 * edge to grab the title bar with a mouse.
 */
const GRAB = { width: 120, height: 40 } as const;

/** The bounds to open with, on one of `workAreas` (the first is the primary screen's). */
export function restoreBounds(saved: SavedWindowState | null | undefined, workAreas: readonly Rect[]): Rect {
  const primary = workAreas[0] ?? { x: 0, y: 0, width: DEFAULT_SIZE.width, height: DEFAULT_SIZE.height };
  const width = sane(saved?.width, DEFAULT_SIZE.width, MIN_SIZE.width);
  const height = sane(saved?.height, DEFAULT_SIZE.height, MIN_SIZE.height);
  if (saved && Number.isFinite(saved.x) && Number.isFinite(saved.y)) {
    const placed = { x: Math.round(saved.x!), y: Math.round(saved.y!), width, height };
    // The screen holding most of the title bar, when it holds enough of it to grab.
    const best = workAreas
      .map((area) => ({ area, overlap: titleBarOverlap(placed, area) }))
      .filter((c) => c.overlap.width >= GRAB.width && c.overlap.height >= GRAB.height)
      .sort((a, b) => b.overlap.width * b.overlap.height - a.overlap.width * a.overlap.height)[0];
    if (best) return fitInside(placed, best.area);
  }
  return centreOn({ x: 0, y: 0, width, height }, primary);
}

/** How much of the title bar strip (the window's top GRAB.height pixels) lies on `area`. */
function titleBarOverlap(win: Rect, area: Rect): { width: number; height: number } {
  const bar = { x: win.x, y: win.y, width: win.width, height: GRAB.height };
  return {
    width: Math.max(0, Math.min(bar.x + bar.width, area.x + area.width) - Math.max(bar.x, area.x)),
    height: Math.max(0, Math.min(bar.y + bar.height, area.y + area.height) - Math.max(bar.y, area.y)),
  };
}

/** Shrinks to the screen when larger, then slides fully onto it. */
function fitInside(win: Rect, area: Rect): Rect {
  const width = Math.min(win.width, area.width);
  const height = Math.min(win.height, area.height);
  const x = Math.min(Math.max(win.x, area.x), area.x + area.width - width);
  const y = Math.min(Math.max(win.y, area.y), area.y + area.height - height);
  return { x, y, width, height };
}

function centreOn(win: Rect, area: Rect): Rect {
  const width = Math.min(win.width, area.width);
  const height = Math.min(win.height, area.height);
  return {
    x: area.x + Math.round((area.width - width) / 2),
    y: area.y + Math.round((area.height - height) / 2),
    width,
    height,
  };
}

function sane(value: number | undefined, fallback: number, min: number): number {
  if (value === undefined || !Number.isFinite(value) || value <= 0) return fallback;
  return Math.max(min, Math.round(value));
}
