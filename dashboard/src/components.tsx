import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText } from './format';
import type { Permission } from './permissions';
import { useApp } from './session';
import { pageTitle, unreadCount } from './unread-count';

// The dashboard's shared components: screens, notes, buttons, tables, forms, dialogs.

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {errorText(error)}
    </p>
  );
}

/** A screen: its heading (the name the spec gives it), an optional trail (Developers ›), then the content. */
export function Screen({ title, trail, children, intro }: { title: string; trail?: string; intro?: ComponentChildren; children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const unread = unreadCount.value;
  useEffect(() => {
    heading.current?.focus();
  }, [title]);
  useEffect(() => {
    document.title = pageTitle(title, unread);
  }, [title, unread]);
  return (
    <section class="screen" aria-labelledby="screen-title">
      <h1 id="screen-title" tabIndex={-1} ref={heading}>
        {trail ? <span class="trail">{trail} › </span> : null}
        {title}
      </h1>
      {intro ? <p class="intro">{intro}</p> : null}
      {children}
    </section>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="muted" role="status">
      Loading {what}…
    </p>
  );
}

const ROLE_NEEDED: Partial<Record<Permission, string>> = {
  members: 'an owner',
  command: 'a role that may give commands',
  'conversations:reply': 'a role that may take part in conversations',
};

/** Why a control is disabled: one line under the heading of a screen the role can only read. */
export function RoleNote({ permission, action }: { permission: Permission; action: string }) {
  const app = useApp();
  if (app.may(permission)) return null;
  return (
    <p class="note" id={`role-note-${permission}`}>
      Your role here is <strong>{app.role}</strong>: you can look, but {action} needs {ROLE_NEEDED[permission] ?? 'an admin or owner'}.
    </p>
  );
}

/** A button the person's role may not use stays visible and disabled, described by the role note. */
export function ActionButton({
  permission,
  children,
  onClick,
  type = 'button',
  variant,
  busy,
  label,
}: {
  permission: Permission;
  children: ComponentChildren;
  onClick?: () => void;
  type?: 'button' | 'submit';
  variant?: 'primary' | 'danger' | 'quiet';
  busy?: boolean;
  label?: string;
}) {
  const app = useApp();
  const allowed = app.may(permission);
  return (
    <button
      type={type}
      class={variant ?? ''}
      disabled={!allowed || busy}
      aria-describedby={allowed ? undefined : `role-note-${permission}`}
      aria-label={label}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

/** A key's name and its masked form (prefix and last four characters), the two first cells of a key's row. */
export function KeyCells({ name, prefix, last4 }: { name: string; prefix: string; last4: string }) {
  return (
    <>
      <td>{name}</td>
      <td class="mono">
        {prefix}…{last4}
      </td>
    </>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      class="quiet"
      onClick={() =>
        void navigator.clipboard.writeText(text).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        })
      }
    >
      {copied ? 'Copied' : label}
      <span class="sr-only" aria-live="polite">
        {copied ? ' to the clipboard' : ''}
      </span>
    </button>
  );
}

/** A secret the API returns once: shown with Copy until the person confirms they saved it. */
export function SecretOnce({ title, value, also, onDone }: { title: string; value: string; also?: { label: string; value: string }; onDone: () => void }) {
  return (
    <div class="secret" role="region" aria-label={title}>
      <p>
        <strong>{title}</strong> — shown once. Copy it now; it cannot be shown again.
      </p>
      <code class="secret-value">{value}</code>
      <div class="row">
        <CopyButton text={value} />
      </div>
      {also ? (
        <>
          <p>{also.label}</p>
          <code class="secret-value secret-also">{also.value}</code>
          <div class="row">
            <CopyButton text={also.value} label="Copy the whsec_ form" />
          </div>
        </>
      ) : null}
      <div class="row">
        <button type="button" class="primary" onClick={onDone}>
          I have saved it
        </button>
      </div>
    </div>
  );
}

/**
 * A modal confirmation (<dialog>: focus trapped, Escape cancels) about `subject`; open while the subject is set.
 * Confirming closes it and hands the subject on.
 */
export function Confirm<T>({
  subject,
  title,
  body,
  confirmLabel,
  dismissLabel = 'Cancel',
  confirmVariant = 'danger',
  onConfirm,
  onClose,
  id = 'confirm-title',
  children,
}: {
  subject: T | null;
  title: string;
  body: (subject: T) => ComponentChildren;
  /** The heading's id, when a screen holds more than one such dialog. */
  id?: string;
  /** More content under the body, e.g. an optional field the action takes. */
  children?: ComponentChildren;
  confirmLabel: string;
  /** The confirming button's look: `danger` (the default) for what cannot be undone, `primary` for a go-ahead. */
  confirmVariant?: 'danger' | 'primary';
  /** The button that closes without acting (where "Cancel" would read as the action itself). */
  dismissLabel?: string;
  onConfirm: (subject: T) => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const open = subject !== null;
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog ref={dialog} aria-labelledby={id} onClose={onClose}>
      <h2 id={id}>{title}</h2>
      <p>{subject !== null ? body(subject) : null}</p>
      {children}
      <div class="row">
        <button type="button" onClick={onClose}>
          {dismissLabel}
        </button>
        <button
          type="button"
          class={confirmVariant}
          onClick={() => {
            if (subject === null) return;
            onClose();
            onConfirm(subject);
          }}
        >
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

/**
 * A table in a box that scrolls sideways on narrow screens; the caption for screen readers, a line when empty.
 * The box is a named, focusable group so a keyboard can scroll it even when no cell holds a control.
 */
export function DataTable({
  caption,
  columns,
  empty,
  children,
}: {
  caption: string;
  columns: (string | { label: string; class: string })[];
  empty?: string | false;
  children: ComponentChildren;
}) {
  return (
    <div class="table-wrap" role="group" aria-label={caption} tabIndex={0}>
      <table>
        <caption class="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) =>
              typeof column === 'string' ? (
                <th scope="col" key={column}>
                  {column || <span class="sr-only">Actions</span>}
                </th>
              ) : (
                <th scope="col" key={column.label} class={column.class}>
                  {column.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {empty ? (
            <tr>
              <td colSpan={columns.length} class="muted">
                {empty}
              </td>
            </tr>
          ) : null}
          {children}
        </tbody>
      </table>
    </div>
  );
}

/** A form whose submit runs `onSubmit` (no page load). */
export function ActionForm({ class: className, onSubmit, children }: { class?: string; onSubmit: () => unknown; children: ComponentChildren }) {
  return (
    <form
      class={className}
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** The end of a settings form: its Save button (for roles with `permission`), "Saved." once it saved, the error. */
export function SaveRow({ permission, busy, saved, error }: { permission: Permission; busy: boolean; saved: boolean; error: unknown }) {
  return (
    <>
      <ActionButton type="submit" permission={permission} variant="primary" busy={busy}>
        Save settings
      </ActionButton>
      {saved && !busy && !error ? (
        <p class="note" role="status">
          Saved.
        </p>
      ) : null}
      <ErrorNote error={error} />
    </>
  );
}
