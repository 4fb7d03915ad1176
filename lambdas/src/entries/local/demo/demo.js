// Demo host page behaviour. A separate file so the page keeps its strict CSP (no inline script).
const log = document.getElementById('event-log');

function show(line) {
  if (!log) return;
  const row = document.createElement('div');
  row.textContent = line;
  log.prepend(row);
}

document.getElementById('theme-toggle')?.addEventListener('click', (event) => {
  const dark = document.documentElement.classList.toggle('dark');
  event.currentTarget.setAttribute('aria-pressed', String(dark));
});

const commands = {
  open: () => window.__service_chat.emit('open'),
  close: () => window.__service_chat.emit('close'),
  badge: () => window.__service_chat.emit('badge', { count: 3 }),
  nudge: () => window.__service_chat.emit('nudge', { text: 'Questions about pricing? Ask me!' }),
  highlight: () => window.__service_chat.emit('highlight', { duration: 3000 }),
  point: () => window.__service_chat.emit('uiAction', { action: 'pointer', target: 'signup-button' }),
  locale: () => window.__service_chat.emit('setLocale', { locale: 'tr' }),
};
document.querySelector('.commands')?.addEventListener('click', (event) => {
  const name = event.target instanceof HTMLElement ? event.target.dataset.command : undefined;
  if (name && commands[name]) commands[name]();
});

// Keyboard access for the custom trigger (a span with role=button).
document.querySelector('.trigger-custom')?.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' || event.key === ' ') {
    event.preventDefault();
    event.currentTarget.click();
  }
});

// This host handles navigate itself (a one-page demo): it scrolls to the section instead of leaving the page.
function whenBusReady(callback) {
  if (window.__service_chat) callback(window.__service_chat);
  else setTimeout(() => whenBusReady(callback), 50);
}
whenBusReady((chat) => {
  for (const name of ['navigate', 'uiAction', 'widgetOpened', 'widgetClosed', 'userMessage', 'botResponse']) {
    chat.on(name, (payload) => show(`${name} ${payload ? JSON.stringify(payload) : ''}`));
  }
  chat.on('navigate', ({ href }) => {
    const section = document.getElementById(href.replace(/^\/(en|tr)?\/?/, '').split(/[/?#]/)[0] ?? '');
    if (section) section.scrollIntoView({ behavior: 'smooth', block: 'start' });
    else if (/^https?:/.test(href)) window.open(href, '_blank', 'noopener');
  });
});
