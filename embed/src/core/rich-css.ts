/** Styles of rendered bot text (cards, links, action buttons, markdown). Shared by the widget and the React adapter. */
export const richCss = `
.scw-offer{margin-top:6px}
.scw-icon{width:16px;height:16px;flex:none;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
.scw-card{display:inline-flex;align-items:center;gap:6px;margin:4px 4px 4px 0;padding:6px 10px;border-radius:10px;border:1px solid;
  font:inherit;font-size:13px;font-weight:600;cursor:pointer;text-align:left;vertical-align:middle}
.scw-card-skill{background:#fef3c7;border-color:#fcd34d;color:#78350f}
.scw-card-agent{background:#dbeafe;border-color:#93c5fd;color:#1e3a8a}
.scw-card-page{background:#e0e7ff;border-color:#a5b4fc;color:#312e81}
.scw-link{color:#6d28d9;text-decoration:underline;font-weight:600}
.scw-action{display:inline-block;margin:4px 4px 4px 0;padding:6px 14px;border:0;border-radius:999px;font:inherit;font-size:13px;
  font-weight:700;color:#fff;background:linear-gradient(135deg,#db2777,#be185d);cursor:pointer}
.scw-card:hover,.scw-action:hover{filter:brightness(.96)}
.scw-card:focus-visible,.scw-action:focus-visible,.scw-link:focus-visible{outline:2px solid #2563eb;outline-offset:2px}
.dark .scw-card-skill{background:#451a03;border-color:#92400e;color:#fde68a}
.dark .scw-card-agent{background:#172554;border-color:#1d4ed8;color:#bfdbfe}
.dark .scw-card-page{background:#1e1b4b;border-color:#4338ca;color:#c7d2fe}
.dark .scw-link{color:#c4b5fd}
.scw-rich code{font-family:ui-monospace,monospace;font-size:.9em;padding:0 3px;border-radius:4px;background:rgba(100,116,139,.18)}
`;
