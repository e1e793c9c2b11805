// Package batch seals and opens many independent messages under one key in
// one call: the shape of packet processing, where each message is short and
// the per-message work of an AEAD (nonce set-up, tag, the serial steps of
// its mode) would otherwise leave the cipher's pipeline idle between them.
//
// fae's AEADs (packages ocb, raocb, ccm, gcm, aegis and rocca, and the
// registry's algorithms whose Info.Batch is true) implement AEAD. Messages
// may differ in length, nonce and additional data. A batch runs on the
// caller's goroutine and allocates nothing: callers spread batches over
// cores as they see fit, and give every message its output buffer.
//
// Every message's result is exactly that of Seal or Open of that message
// alone; nonces must be unique under the key across all messages, batched
// or not, as for single calls.
package batch

import "crypto/cipher"

// A Message is one message of a batch.
type Message struct {
	// Nonce and AD are the message's nonce, of the AEAD's NonceSize, and
	// its additional data.
	Nonce, AD []byte
	// In is the plaintext (SealBatch) or the ciphertext followed by the
	// tag (OpenBatch).
	In []byte
	// Out receives the ciphertext and tag (SealBatch) or the plaintext
	// (OpenBatch). It must be exactly len(In)+Overhead() bytes long for
	// SealBatch, and len(In)-Overhead() for OpenBatch (0 when In is shorter
	// than the tag). It may start at In's first byte (in place) but must
	// not overlap In otherwise, nor AD.
	Out []byte
	// OK is set by OpenBatch: true when the message authenticated.
	// SealBatch neither reads nor writes it.
	OK bool
}

// AEAD is a cipher.AEAD that also seals and opens batches of messages.
type AEAD interface {
	cipher.AEAD

	// SealBatch seals each message's In into its Out, as Seal(Out[:0],
	// Nonce, In, AD) would. It checks every message before it writes any
	// output and panics, as Seal does, on a nonce of the wrong length, an
	// Out of the wrong length, an Out that overlaps its In other than
	// exactly or overlaps its AD, or a message longer than the AEAD
	// allows. Messages must not overlap one another; that is not checked,
	// since the cost would grow with the square of the batch.
	SealBatch(msgs []Message)

	// OpenBatch opens each message's In into its Out, as Open(Out[:0],
	// Nonce, In, AD) would, and sets its OK. The Out of a message that
	// fails to authenticate is zeroed; a message whose In is shorter than
	// the tag fails, with an empty Out. OpenBatch returns true when every
	// message authenticated. It checks every message before it writes
	// any output and panics, as Open does, on a nonce of the wrong length,
	// an Out of the wrong length, or an Out that overlaps its In other
	// than exactly or overlaps its AD; a message too long for the AEAD
	// fails. Messages must not overlap one another (not checked).
	OpenBatch(msgs []Message) (allOK bool)
}
