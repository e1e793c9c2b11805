// Package ocbnonce formats a nonce as OCB3 (RFC 7253, Section 4.2) and
// RAOCB, which takes OCB3's format, feed it to the block cipher.
package ocbnonce

import "encoding/binary"

// Block returns the 16-byte block Nonce = num2str(TAGLEN mod 128, 7) ||
// zeros || 1 || N, for a nonce of 1 to 15 bytes and a tag of tagSize bytes,
// as a big-endian 128-bit integer hi:lo. It is built in registers, the last
// 8 bytes of N in one load: a byte-at-a-time loop over the whole nonce is a
// long dependency chain in every Seal and Open of a short message, and a
// block assembled in memory would stall the load that follows.
func Block(nonce []byte, tagSize int) (hi, lo uint64) {
	if n := len(nonce); n >= 8 {
		for _, c := range nonce[:n-8] {
			hi = hi<<8 | uint64(c)
		}
		lo = binary.BigEndian.Uint64(nonce[n-8:])
	} else {
		for _, c := range nonce {
			lo = lo<<8 | uint64(c)
		}
	}
	if n := 8 * uint(len(nonce)); n < 64 {
		lo |= 1 << n
	} else {
		hi |= 1 << (n - 64)
	}
	return hi | uint64(tagSize*8%128)<<57, lo
}
