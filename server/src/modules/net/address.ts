// Which IP addresses an outbound request may reach. Fails closed: anything that is not a plainly written,
// globally routable unicast address (or an IPv6 form that embeds one) is not public.
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/** IPv4 ranges ipaddr.js calls "unicast" are public; every special range (see its SpecialRanges) is not. */
function isPublicV4(bytes: readonly number[]): boolean {
  if (bytes.length !== 4) return false;
  return new ipaddr.IPv4([...bytes]).range() === "unicast";
}

function v4At(bytes: readonly number[], offset: number): number[] {
  return bytes.slice(offset, offset + 4);
}

function startsWith(bytes: readonly number[], prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

function allZero(bytes: readonly number[]): boolean {
  return bytes.every((b) => b === 0);
}

function isPublicV6(bytes: readonly number[]): boolean {
  if (bytes.length !== 16) return false;
  const head = bytes.slice(0, 12);

  // ::ffff:a.b.c.d (IPv4-mapped) and ::a.b.c.d (IPv4-compatible, deprecated; also covers :: and ::1).
  if (allZero(head.slice(0, 10)) && ((head[10] === 0xff && head[11] === 0xff) || (head[10] === 0 && head[11] === 0))) {
    return isPublicV4(v4At(bytes, 12));
  }
  // ::ffff:0:a.b.c.d (RFC 6145 IPv4-translated).
  if (allZero(head.slice(0, 8)) && head[8] === 0xff && head[9] === 0xff && head[10] === 0 && head[11] === 0) {
    return isPublicV4(v4At(bytes, 12));
  }
  // 64:ff9b::/96 (RFC 6052 well-known NAT64 prefix): public only when the embedded IPv4 address is.
  if (startsWith(bytes, [0x00, 0x64, 0xff, 0x9b]) && allZero(bytes.slice(4, 12))) return isPublicV4(v4At(bytes, 12));
  // 2002::/16 (6to4): the IPv4 address is bits 16..47.
  if (startsWith(bytes, [0x20, 0x02])) return isPublicV4(v4At(bytes, 2));
  // 2001:0::/32 (Teredo): server IPv4 in bits 32..63, client IPv4 (inverted) in the last 32 bits.
  if (startsWith(bytes, [0x20, 0x01, 0x00, 0x00])) {
    const client = v4At(bytes, 12).map((b) => b ^ 0xff);
    return isPublicV4(v4At(bytes, 4)) && isPublicV4(client);
  }

  // Everything else must be global unicast (2000::/3). That excludes ::/128, ::1, fe80::/10, fc00::/7,
  // ff00::/8, 64:ff9b:1::/48 (local-use NAT64), 100::/64 (discard) and every other reserved block.
  const first = bytes[0]!;
  if ((first & 0xe0) !== 0x20) return false;
  // 2001::/23 (IETF protocol assignments: benchmarking, ORCHID, …), 2001:db8::/32 and 3fff::/20 (documentation).
  if (first === 0x20 && bytes[1] === 0x01 && bytes[2] === 0x00 && (bytes[3]! & 0xfe) === 0x00) return false;
  if (startsWith(bytes, [0x20, 0x01, 0x0d, 0xb8])) return false;
  if (first === 0x3f && bytes[1] === 0xff && (bytes[2]! & 0xf0) === 0x00) return false;
  return true;
}

/**
 * True when `ip` is a globally routable unicast address an outbound request may connect to.
 * Only plainly written addresses count (dotted-quad IPv4, standard IPv6, no brackets): anything else is
 * not public. IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo) are judged
 * by the embedded address.
 */
export function isPublicAddress(ip: string): boolean {
  if (typeof ip !== "string") return false;
  const withoutZone = ip.includes("%") ? ip.slice(0, ip.indexOf("%")) : ip;
  const version = isIP(withoutZone);
  if (version === 0) return false;
  try {
    const parsed = ipaddr.parse(withoutZone);
    const bytes = parsed.toByteArray();
    return version === 4 ? isPublicV4(bytes) : isPublicV6(bytes);
  } catch {
    return false;
  }
}
