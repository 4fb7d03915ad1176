/** ChatTrigger styles, adopted into the host document (constructable sheet: CSP-safe). `inherit` has no palette. */
export const triggerCss = `
.scw-trigger{display:inline-flex;align-items:center;gap:6px;font:inherit;cursor:pointer;border:0;background:none;padding:0}
.scw-trigger:focus-visible{outline:2px solid #2563eb;outline-offset:2px}
.scw-trigger-icon{border-radius:50%;justify-content:center}
.scw-trigger-icon.scw-sm{width:20px;height:20px}.scw-trigger-icon.scw-md{width:26px;height:26px}.scw-trigger-icon.scw-lg{width:34px;height:34px}
.scw-trigger-icon svg{width:70%;height:70%}
.scw-trigger-link{text-decoration:underline;text-underline-offset:2px}
.scw-trigger-link svg{width:1em;height:1em}
.scw-trigger-button{padding:8px 16px;border-radius:999px;font-weight:600}
.scw-trigger-button svg{width:1.1em;height:1.1em}
.scw-trigger-icon.scw-blue{background:#dbeafe;color:#1d4ed8}.scw-trigger-link.scw-blue{color:#1d4ed8}.scw-trigger-button.scw-blue{background:#2563eb;color:#fff}
.scw-trigger-icon.scw-gray{background:#f1f5f9;color:#334155}.scw-trigger-link.scw-gray{color:#334155}.scw-trigger-button.scw-gray{background:#e2e8f0;color:#0f172a}
.scw-trigger-icon.scw-white{background:#fff;color:#1e293b;box-shadow:0 1px 3px rgba(0,0,0,.2)}.scw-trigger-link.scw-white{color:#fff}.scw-trigger-button.scw-white{background:#fff;color:#1e293b;box-shadow:0 1px 3px rgba(0,0,0,.2)}
.dark .scw-trigger-icon.scw-blue{background:#1e3a8a;color:#bfdbfe}.dark .scw-trigger-link.scw-blue{color:#93c5fd}.dark .scw-trigger-button.scw-blue{background:#3b82f6;color:#0b1120}
.dark .scw-trigger-icon.scw-gray{background:#334155;color:#e2e8f0}.dark .scw-trigger-link.scw-gray{color:#cbd5e1}.dark .scw-trigger-button.scw-gray{background:#475569;color:#f8fafc}
.dark .scw-trigger-icon.scw-white{background:#1e293b;color:#f8fafc}.dark .scw-trigger-link.scw-white{color:#f8fafc}.dark .scw-trigger-button.scw-white{background:#f8fafc;color:#0f172a}
`;
