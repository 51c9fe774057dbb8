/**
 * "My posts' cloud answers": when the cloud a post was pinged to answers (accepted or refused),
 * one notification says so. The writer's 'post.changed' event carries a PostView; this file reads
 * only the few fields below (main/notifications.ts adapts the view).
 */
import type { NotificationSpec } from './notify-batcher.ts';

/** What a post change must tell us. */
export interface PostAnswerSource {
  id: number;
  text: string;
  /** The cloud's answer to the latest ping of this post, once there is one. */
  cloudAnswer: { ok: boolean; message: string; cloud: string } | null;
}

/** Remembers each post's last answer so one answer is one notification, not one per event. */
export class PostAnswerWatcher {
  private readonly seen = new Map<number, string>();

  /** The notification for this change, or null when nothing new was answered. */
  changed(post: PostAnswerSource): NotificationSpec | null {
    const answer = post.cloudAnswer;
    if (!answer) return null;
    const key = JSON.stringify(answer);
    if (this.seen.get(post.id) === key) return null;
    this.seen.set(post.id, key);
    const text = post.text.length > 80 ? `${post.text.slice(0, 79)}…` : post.text;
    return {
      title: answer.ok ? `${answer.cloud} took your post` : `${answer.cloud} refused your post`,
      body: answer.ok ? text : `${answer.message}\n${text}`,
      target: { feedId: null, itemId: null },
    };
  }
}
