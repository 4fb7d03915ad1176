// The Settings screen's live preview (preview.html in an iframe): the real widget, loaded by its one-line loader from
// /embed/ on this origin, for the agent named in the query. A script element, not inline code: the CSP stays strict.
const agentId = new URLSearchParams(location.search).get('agent') ?? '';
const script = document.createElement('script');
script.src = new URL('/embed/loader.js', location.origin).href;
script.async = true;
script.dataset.agentId = agentId;
script.dataset.showDelay = '0';
script.dataset.teaserDelay = '500';
document.body.append(script);
