import { describe, expect, it } from 'vitest';
import { SHORTCUTS } from '../../../../src/app/shortcuts';
import { isTypingTarget, KeyResolver, SEQUENCE_MS } from './key-resolver';

describe('KeyResolver', () => {
  it('answers every key of the shortcut table with its command', () => {
    for (const shortcut of SHORTCUTS) {
      for (const key of shortcut.keys) {
        const resolver = new KeyResolver();
        const parts = key === ' ' ? [' '] : key.split(' ');
        let last = resolver.press(parts[0]!, 0);
        if (parts[1]) {
          expect(last).toEqual({ kind: 'pending' });
          last = resolver.press(parts[1], 10);
        }
        expect(last, key).toEqual({ kind: 'command', command: shortcut.command });
      }
    }
  });

  it('tells Shift+A (key "A") from a', () => {
    const resolver = new KeyResolver();
    expect(resolver.press('A', 0)).toEqual({ kind: 'command', command: 'view.markAllRead' });
    expect(resolver.press('a', 1)).toEqual({ kind: 'none' });
  });

  it('drops a sequence whose second key comes too late, and reads that key on its own', () => {
    const resolver = new KeyResolver();
    expect(resolver.press('g', 0)).toEqual({ kind: 'pending' });
    expect(resolver.press('s', SEQUENCE_MS + 1)).toEqual({ kind: 'command', command: 'item.toggleStar' });
  });

  it('reads an unknown second key as a key of its own', () => {
    const resolver = new KeyResolver();
    resolver.press('g', 0);
    expect(resolver.press('j', 5)).toEqual({ kind: 'command', command: 'item.next' });
  });

  it('forgets a pending sequence on reset', () => {
    const resolver = new KeyResolver();
    resolver.press('g', 0);
    resolver.reset();
    expect(resolver.press('a', 5)).toEqual({ kind: 'none' });
  });
});

describe('isTypingTarget', () => {
  it('is true for text fields and editable content, false for buttons and the page', () => {
    expect(isTypingTarget({ tagName: 'INPUT', type: 'search' } as unknown as EventTarget)).toBe(true);
    expect(isTypingTarget({ tagName: 'TEXTAREA' } as unknown as EventTarget)).toBe(true);
    expect(isTypingTarget({ tagName: 'DIV', isContentEditable: true } as unknown as EventTarget)).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'checkbox' } as unknown as EventTarget)).toBe(false);
    expect(isTypingTarget({ tagName: 'BUTTON' } as unknown as EventTarget)).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});
