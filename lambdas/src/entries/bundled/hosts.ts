/** The host names the template's resources have in AWS, each mapped to the loopback origin that stands for it. */
export class Hosts {
  private readonly origins = new Map<string, string>();

  add(awsHost: string, origin: string): void {
    this.origins.set(awsHost, origin);
  }

  origin(awsHost: string): string {
    const origin = this.origins.get(awsHost);
    if (!origin) throw new Error(`${awsHost} is not a host of this stack`);
    return origin;
  }

  /**
   * A value with every AWS address replaced by its local one (TLS ends at the edge we cannot reach: http), and a host
   * pattern (`*.cloudfront.net`) by the local hosts of that kind, comma-separated.
   */
  localize(value: string): string {
    let localized = value.replace(/\*\.([a-z0-9.-]+)/g, (pattern: string, suffix: string) => {
      const matching = [...this.origins].filter(([host]) => host.endsWith(`.${suffix}`)).map(([, origin]) => origin.replace('http://', ''));
      return matching.length ? matching.join(',') : pattern;
    });
    for (const [host, origin] of this.origins) localized = localized.replaceAll(`https://${host}`, origin).replaceAll(host, origin.replace('http://', ''));
    return localized;
  }
}

export const hostOf = (url: string) => new URL(url.includes('://') ? url : `https://${url}`).host;
