import type { DragEvent } from 'react';

/** What the sidebar drags: a feed or a folder, by id, in a type only this app writes. */
export const DRAG_TYPE = 'application/x-tidings-row';

export interface DragPayload {
  kind: 'feed' | 'folder';
  id: number;
}

/** Where a drop files it: a folder, or null for "no folder" (dropped on All). */
export interface DropTarget {
  folderId: number | null;
}

export function startDrag(event: DragEvent, payload: DragPayload): void {
  event.dataTransfer.setData(DRAG_TYPE, JSON.stringify(payload));
  event.dataTransfer.setData('text/plain', `${payload.kind} ${payload.id}`);
  event.dataTransfer.effectAllowed = 'move';
  dragging = payload;
}

export function endDrag(): void {
  dragging = null;
}

// dragover cannot read the data (only its types), so the payload is also kept here while dragging.
let dragging: DragPayload | null = null;

export function readDrag(event: DragEvent): DragPayload | null {
  if (!event.dataTransfer.types.includes(DRAG_TYPE)) return null;
  if (event.type === 'drop') {
    try {
      return JSON.parse(event.dataTransfer.getData(DRAG_TYPE)) as DragPayload;
    } catch {
      return dragging;
    }
  }
  return dragging;
}
