/**
 * The widget's own styles, adopted into its shadow root. `:host` resets what the host page would otherwise inherit;
 * its declarations are !important because important declarations of a shadow tree win over the page's, even over
 * `div{display:none!important}` (the cascade's context rule).
 */
export const widgetCss = `
:host{all:initial!important;display:block!important;position:fixed!important;inset:0 auto auto 0!important;width:0!important;
  height:0!important;margin:0!important;padding:0!important;border:0!important;overflow:visible!important;background:none!important;
  z-index:2147483647!important;visibility:visible!important;opacity:1!important;transform:none!important;pointer-events:auto!important}
.scw-root{--scw-bg:#fff;--scw-fg:#0f172a;--scw-muted:#475569;--scw-line:#e2e8f0;--scw-bot:#eff6ff;--scw-bot-fg:#1e3a8a;
  --scw-field:#f8fafc;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--scw-fg);
  -webkit-font-smoothing:antialiased;text-align:left;letter-spacing:normal;word-spacing:normal;text-transform:none}
.scw-root.dark{--scw-bg:#0f172a;--scw-fg:#e2e8f0;--scw-muted:#94a3b8;--scw-line:#1e293b;--scw-bot:#1e3a8a;--scw-bot-fg:#dbeafe;--scw-field:#1e293b}
.scw-root *,.scw-root *::before,.scw-root *::after{box-sizing:border-box}
button{font:inherit;color:inherit}
.scw-fab{position:fixed;right:20px;bottom:20px;width:60px;height:60px;border:0;border-radius:50%;cursor:pointer;color:#fff;
  display:grid;place-items:center;background:linear-gradient(135deg,var(--scw-from),var(--scw-to));
  box-shadow:0 10px 25px -5px rgba(37,99,235,.5);transition:transform .2s;animation:scw-in .3s ease-out}
.scw-fab:hover{transform:scale(1.06)}
.scw-fab:focus-visible,.scw-icon-btn:focus-visible,.scw-send:focus-visible,.scw-teaser-text:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}
.scw-fab .scw-icon{width:28px;height:28px}
.scw-loading{animation:scw-pulse 1.6s ease-in-out infinite}
.scw-highlight{animation:scw-ring 1s ease-out infinite}
.scw-badge{position:absolute;top:-2px;right:-2px;min-width:22px;height:22px;padding:0 6px;border-radius:11px;background:#dc2626;
  color:#fff;font-size:12px;font-weight:700;line-height:22px;text-align:center;border:2px solid #fff}
.scw-teaser,.scw-nudge{position:fixed;right:20px;bottom:92px;max-width:280px;display:flex;align-items:flex-start;gap:4px;
  padding:12px 8px 12px 14px;border-radius:16px 16px 4px 16px;background:var(--scw-bg);color:var(--scw-fg);
  box-shadow:0 10px 30px -8px rgba(15,23,42,.35);border:1px solid var(--scw-line);animation:scw-slide .35s ease-out}
.scw-nudge{padding-right:14px}
.scw-teaser-text{border:0;background:none;padding:0;text-align:left;cursor:pointer;line-height:1.45}
.scw-hl{color:var(--scw-primary);font-weight:700}
.dark .scw-hl{color:#93c5fd}
.scw-panel{position:fixed;right:20px;bottom:92px;width:380px;height:min(600px,calc(100vh - 120px));display:flex;flex-direction:column;
  background:var(--scw-bg);color:var(--scw-fg);border:1px solid var(--scw-line);border-radius:18px;overflow:hidden;
  box-shadow:0 24px 48px -12px rgba(15,23,42,.35);animation:scw-slide .25s ease-out}
.scw-header{display:flex;align-items:center;gap:10px;padding:12px 12px 12px 14px;border-bottom:1px solid var(--scw-line)}
.scw-avatar{width:36px;height:36px;flex:none;border-radius:50%;display:grid;place-items:center;overflow:hidden;color:#fff;
  background:linear-gradient(135deg,var(--scw-from),var(--scw-to))}
.scw-avatar img{width:100%;height:100%;object-fit:cover}
.scw-title{flex:1;min-width:0}
.scw-name{font-weight:700;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.scw-role{font-size:12px;color:var(--scw-muted);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.scw-icon-btn{width:32px;height:32px;flex:none;border:0;border-radius:8px;background:none;cursor:pointer;display:grid;place-items:center;color:var(--scw-muted)}
.scw-icon-btn:hover{background:var(--scw-field);color:var(--scw-fg)}
.scw-dismiss{width:24px;height:24px}
.scw-log{flex:1;overflow-y:auto;padding:14px;display:flex;flex-direction:column;gap:8px;overscroll-behavior:contain}
.scw-msg{display:flex}
.scw-user{justify-content:flex-end}
.scw-bot{gap:6px;align-items:flex-end}.scw-msg>.scw-avatar{width:26px;height:26px}
.scw-msg:hover::after{content:attr(data-time);align-self:center;margin:0 6px;font-size:11px;color:var(--scw-muted)}.scw-user::after{order:-1}
.scw-bubble{max-width:85%;padding:9px 13px;border-radius:16px;white-space:pre-wrap;overflow-wrap:anywhere}
.scw-bot .scw-bubble{background:var(--scw-bot);color:var(--scw-bot-fg);border-bottom-left-radius:4px}
.scw-user .scw-bubble{background:#2563eb;color:#fff;border-bottom-right-radius:4px}
.scw-error .scw-bubble{background:#fef2f2;color:#991b1b}
.dark .scw-error .scw-bubble{background:#450a0a;color:#fecaca}
.scw-typing{display:inline-flex;gap:4px;padding:12px 14px;border-radius:16px;background:var(--scw-bot)}
.scw-typing i{width:7px;height:7px;border-radius:50%;background:var(--scw-bot-fg);opacity:.5;animation:scw-dot 1.2s infinite}
.scw-typing i:nth-child(2){animation-delay:.15s}.scw-typing i:nth-child(3){animation-delay:.3s}
.scw-form{display:flex;gap:8px;align-items:flex-end;padding:10px;border-top:1px solid var(--scw-line)}
.scw-form textarea{flex:1;resize:none;min-height:40px;max-height:120px;padding:9px 12px;border:1px solid var(--scw-line);border-radius:12px;
  background:var(--scw-field);color:var(--scw-fg);font:inherit;font-size:16px;line-height:1.3}
.scw-form textarea::placeholder{color:var(--scw-muted)}
.scw-form textarea:focus{outline:2px solid #3b82f6;outline-offset:0;border-color:transparent}
.scw-send{width:40px;height:40px;flex:none;border:0;border-radius:12px;background:#2563eb;color:#fff;display:grid;place-items:center;cursor:pointer}
.scw-send:disabled{opacity:.55;cursor:default}
.scw-sr{position:fixed;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (max-width:640px){
  .scw-panel{right:0;left:0;bottom:auto;top:var(--scw-vv-top,0px);width:100%;height:var(--scw-vv-height,100dvh);border-radius:0;border:0}
  .scw-open .scw-fab,.scw-open .scw-teaser{display:none}
}
@keyframes scw-in{from{transform:scale(.6);opacity:0}}
@keyframes scw-slide{from{transform:translateY(12px);opacity:0}}
@keyframes scw-pulse{50%{box-shadow:0 0 0 10px rgba(59,130,246,.18)}}
@keyframes scw-ring{from{box-shadow:0 0 0 0 rgba(59,130,246,.7)}to{box-shadow:0 0 0 18px rgba(59,130,246,0)}}
@keyframes scw-dot{40%{opacity:1;transform:translateY(-3px)}}
@media (prefers-reduced-motion:reduce){.scw-root *{animation:none!important;transition:none!important}}
`;
