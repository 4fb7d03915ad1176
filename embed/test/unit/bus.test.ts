import { describe, expect, it, vi } from 'vitest';
import { createBus } from '../../src/core/event-bus';
import { normalizeConfig, DEFAULT_CONFIG } from '../../src/core/config';

describe('event bus', () => {
  it('keeps inbound commands for the widget until it is ready and replays them to it in order; listeners hear them at once', () => {
    const bus = createBus();
    const heard: string[] = [];
    bus.on('uiAction', (payload) => heard.push(`uiAction ${payload.target}`));
    bus.emit('open');
    bus.emit('badge', { count: 2 });
    bus.emit('uiAction', { action: 'pointer', target: '#cta' });
    // An overlay (or a host listener) does not wait for a widget that may never come.
    expect(heard).toEqual(['uiAction #cta']);
    const replayed: unknown[] = [];
    bus.markReady((name, payload) => replayed.push([name, payload]));
    expect(replayed).toEqual([
      ['open', undefined],
      ['badge', { count: 2 }],
      ['uiAction', { action: 'pointer', target: '#cta' }],
    ]);
    // Once ready, the bus keeps nothing back and replays nothing twice.
    bus.emit('uiAction', { action: 'scroll', target: '#far' });
    expect(heard).toEqual(['uiAction #cta', 'uiAction #far']);
    expect(replayed).toHaveLength(3);
  });

  it('delivers outbound events at once, counts listeners, unsubscribes, survives a throwing listener', () => {
    const bus = createBus();
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const handler = vi.fn();
    bus.on('navigate', () => {
      throw new Error('host bug');
    });
    const off = bus.on('navigate', handler);
    expect(bus.listenerCount).toBe(2);
    expect(bus.hasListeners('navigate')).toBe(true);
    bus.emit('navigate', { href: '/x' });
    expect(handler).toHaveBeenCalledWith({ href: '/x' });
    off();
    expect(bus.listenerCount).toBe(1);
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });

  it('logs every event when debug is on', () => {
    const bus = createBus();
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    bus.debug(true);
    bus.emit('widgetOpened');
    bus.debug(false);
    bus.emit('widgetClosed');
    expect(debug).toHaveBeenCalledTimes(1);
    debug.mockRestore();
  });
});

describe('widget configuration', () => {
  it('keeps valid fields and replaces malformed ones with defaults', () => {
    const config = normalizeConfig({
      agent: { name: 'Ada', avatarUrl: 'javascript:alert(1)' },
      branding: { primaryColor: 'red;background:url(x)', gradientFrom: '#123456' },
      widget: { showDelay: -5, teaserDelay: 100 },
    });
    expect(config.agent.name).toBe('Ada');
    expect(config.agent.avatarUrl).toBe('');
    expect(config.branding.primaryColor).toBe(DEFAULT_CONFIG.branding.primaryColor);
    expect(config.branding.gradientFrom).toBe('#123456');
    expect(config.widget.showDelay).toBe(2000);
    expect(config.widget.teaserDelay).toBe(100);
    expect(normalizeConfig('nonsense')).toEqual(DEFAULT_CONFIG);
  });
});
