import { describe, expect, it } from 'vitest';
import { DEFAULT_SIZE, restoreBounds } from './window-bounds.ts';

const laptop = { x: 0, y: 0, width: 1440, height: 875 };
const monitorRight = { x: 1440, y: 0, width: 2560, height: 1415 };

describe('restoreBounds', () => {
  it('keeps the saved place when it is on a screen', () => {
    const saved = { x: 1600, y: 100, width: 1300, height: 900 };
    expect(restoreBounds(saved, [laptop, monitorRight])).toEqual(saved);
  });

  it('moves the window back when its screen is gone (monitor unplugged): centred on the primary', () => {
    const saved = { x: 1600, y: 100, width: 1300, height: 800 };
    expect(restoreBounds(saved, [laptop])).toEqual({ x: 70, y: 38, width: 1300, height: 800 });
  });

  it('shrinks a window larger than its screen and slides it fully on', () => {
    const saved = { x: 1400, y: 10, width: 3000, height: 2000 };
    // Its title bar is mostly on the right-hand monitor: it stays there, fitted.
    expect(restoreBounds(saved, [laptop, monitorRight])).toEqual({
      x: 1440,
      y: 0,
      width: 2560,
      height: 1415,
    });
  });

  it('does not count a sliver: the title bar must be grabbable', () => {
    // Only 60 px of the window's width reaches the laptop screen.
    const saved = { x: 1380, y: 100, width: 800, height: 600 };
    expect(restoreBounds(saved, [laptop])).toEqual({ x: 320, y: 138, width: 800, height: 600 });
    // Title bar above the top of every screen.
    expect(restoreBounds({ x: 100, y: -500, width: 800, height: 600 }, [laptop])).toEqual({
      x: 320,
      y: 138,
      width: 800,
      height: 600,
    });
  });

  it('opens at the default size, centred, with nothing saved or garbage saved', () => {
    const centred = { x: 120, y: 38, width: DEFAULT_SIZE.width, height: DEFAULT_SIZE.height };
    expect(restoreBounds(undefined, [laptop])).toEqual(centred);
    expect(
      restoreBounds({ x: Number.NaN, y: 5, width: -3, height: Number.POSITIVE_INFINITY }, [laptop]),
    ).toEqual(centred);
  });

  it('never opens smaller than usable, nor bigger than a small screen', () => {
    const tiny = restoreBounds({ x: 10, y: 10, width: 50, height: 20 }, [laptop]);
    expect(tiny).toMatchObject({ width: 480, height: 400 });
    const netbook = { x: 0, y: 0, width: 1024, height: 576 };
    expect(restoreBounds({ width: 1200, height: 800 }, [netbook])).toEqual({
      x: 0,
      y: 0,
      width: 1024,
      height: 576,
    });
  });
});
