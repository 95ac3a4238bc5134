import { createHash, createHmac } from 'node:crypto';

/**
 * The signature headers of one delivery, as HubSpot sends them: v1 (hex SHA-256 of client secret +
 * body) and v3 (base64 HMAC-SHA256 keyed by the client secret over method + URL + body + timestamp).
 * The SDK's `Signature.isValid` checks either.
 */
export function signatureHeaders(
  clientSecret: string,
  method: string,
  url: string,
  body: string,
  timestampMs: number,
): Record<string, string> {
  return {
    'X-HubSpot-Signature': createHash('sha256')
      .update(clientSecret + body, 'utf8')
      .digest('hex'),
    'X-HubSpot-Signature-Version': 'v1',
    'X-HubSpot-Signature-v3': createHmac('sha256', clientSecret)
      .update(`${method}${url}${body}${timestampMs}`, 'utf8')
      .digest('base64'),
    'X-HubSpot-Request-Timestamp': String(timestampMs),
  };
}
