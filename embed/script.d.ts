// The script-tag assets `loader.js` and `widget.js`: importing one runs it for its side effects; it exports nothing.
export {};
