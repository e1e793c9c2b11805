// Package aegis implements the AEGIS family of authenticated ciphers of
// draft-irtf-cfrg-aegis-aead-18: AEGIS-128L and AEGIS-256, their parallel
// modes AEGIS-128X2, AEGIS-128X4, AEGIS-256X2 and AEGIS-256X4, each with
// 16- or 32-byte tags, and AEGISMAC for every one of them.
//
// AEGIS is built from the bare AES round: a state of eight (AEGIS-128*) or
// six (AEGIS-256*) 16-byte words, each updated by one AES round per input
// block. There is no key schedule; the key and nonce only seed the state. A
// parallel mode with degree D runs D such states ("lanes") side by side, in
// the 128-bit lanes of one vector register, and absorbs D times as much
// input per update.
//
// Kernels follow fae's AES engine (internal/aes): AES-NI on xmm registers
// for AEGIS-128L and AEGIS-256; VAES on ymm registers for the X2 modes and on
// zmm registers (AVX-512) for the X4 modes, narrower registers taking the
// lanes in turn where the CPU lacks the wide ones; on arm64 the ARMv8 AES
// instructions, one lane at a time; elsewhere, and with the
// purego build tag, the portable code on the constant-time bitsliced AES
// round. Batches of AEGIS-128L or AEGIS-256 messages (SealBatch, OpenBatch)
// run four messages at once in the lanes of zmm registers, or two of one
// shape in ymm, each with its own nonce, length and tag.
//
// Nonces are as long as the key (16 bytes for AEGIS-128*, 32 for AEGIS-256*)
// and must never repeat under one key, whatever the tag size. Messages and
// associated data are at most 2^61-1 bytes long.
package aegis

import (
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"strconv"

	"github.com/faelabs/fae/internal/alias"
	"github.com/faelabs/fae/internal/words"
)

const (
	maxLanes = 4
	maxWords = 8
	maxState = maxWords * maxLanes * 16 // bytes
	maxRate  = 2 * maxLanes * 16        // bytes absorbed per update
	maxLen   = 1<<61 - 1                // P_MAX and A_MAX, bytes
)

// A variant is one member of the family: lanes parallel AEGIS-128L (words
// 8) or AEGIS-256 (words 6) states; one lane is the base cipher itself.
type variant struct {
	name    string
	keySize int // bytes; the nonce is as long
	words   int // 16-byte words per lane
	lanes   int
	// ctx holds the context blocks of Init: [i, lanes-1, 0, ...] for lane
	// i, which is all zero for one lane.
	ctx [maxLanes * 16]byte
}

var (
	v128L  = newVariant("AEGIS-128L", 16, 8, 1)
	v128X2 = newVariant("AEGIS-128X2", 16, 8, 2)
	v128X4 = newVariant("AEGIS-128X4", 16, 8, 4)
	v256   = newVariant("AEGIS-256", 32, 6, 1)
	v256X2 = newVariant("AEGIS-256X2", 32, 6, 2)
	v256X4 = newVariant("AEGIS-256X4", 32, 6, 4)
)

func newVariant(name string, keySize, words, lanes int) *variant {
	v := &variant{name: name, keySize: keySize, words: words, lanes: lanes}
	for i := range lanes {
		v.ctx[16*i], v.ctx[16*i+1] = byte(i), byte(lanes-1)
	}
	return v
}

// wordSize is the size of one word across all lanes.
func (v *variant) wordSize() int { return 16 * v.lanes }

// rate is the size of an input block: two words (M0 and M1) for AEGIS-128*,
// one for AEGIS-256*.
func (v *variant) rate() int {
	if v.words == 8 {
		return 2 * v.wordSize()
	}
	return v.wordSize()
}

// A block is one 16-byte word of one lane, as two little-endian halves.
type block struct{ lo, hi uint64 }

func load(b []byte) block {
	return block{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])}
}

func (x block) put(b []byte) {
	binary.LittleEndian.PutUint64(b, x.lo)
	binary.LittleEndian.PutUint64(b[8:], x.hi)
}

func (x block) xor(y block) block { return block{x.lo ^ y.lo, x.hi ^ y.hi} }

// The constants of the initialization, draft Section 2.
var (
	c0 = load([]byte{0x00, 0x01, 0x01, 0x02, 0x03, 0x05, 0x08, 0x0d, 0x15, 0x22, 0x37, 0x59, 0x90, 0xe9, 0x79, 0x62})
	c1 = load([]byte{0xdb, 0x3d, 0x18, 0x55, 0x6d, 0xc2, 0x2f, 0xf1, 0x20, 0x11, 0x31, 0x42, 0x73, 0xb5, 0x28, 0xdd})
)

// The operations of state.blocks on whole input blocks.
const (
	opAbsorb = iota // Update with each block of src
	opEnc           // Enc: dst = block ^ keystream, Update(block)
	opDec           // Dec: dst = block ^ keystream, Update(dst)
)

// state is the AEGIS state of one message. Word j of lane i is at
// s[16*(j*lanes+i):]: a word of all lanes is one vector register's worth of
// contiguous bytes, the layout the kernels load. The state between kernel
// calls is always in this form, so any kernel can continue any message.
type state struct {
	v *variant
	s [maxState]byte
}

// tags holds the lanes' tags that state.final computes: lane i's
// tag at 16*i and, for 32-byte tags, its second half at wordSize() + 16*i.
type tags [2 * maxLanes * 16]byte

// word returns the 8 bytes at offset k of word j (all lanes).
func (st *state) word(j, k int) uint64 {
	return binary.LittleEndian.Uint64(st.s[j*st.v.wordSize()+k:])
}

// lane returns word j of lane i.
func (st *state) lane(j, i int) block { return load(st.s[16*(j*st.v.lanes+i):]) }

// init is Init(key, nonce) (draft Sections 3.4, 4.4, 5.4.2, 5.5.2).
func (st *state) init(v *variant, key, nonce []byte) {
	st.v = v
	st.initState(key, nonce)
}

// absorb absorbs data zero-padded to whole blocks.
func (st *state) absorb(data []byte) {
	r := st.v.rate()
	full := len(data) &^ (r - 1)
	if full > 0 {
		st.blocks(opAbsorb, nil, data[:full], full/r, r)
	}
	if full < len(data) {
		var b [maxRate]byte
		copy(b[:], data[full:])
		st.blocks(opAbsorb, nil, b[:r], 1, r)
	}
}

// encrypt encrypts src into dst (as long as src, or src itself): Enc on
// every block, the last one zero-padded.
func (st *state) encrypt(dst, src []byte) {
	r := st.v.rate()
	full := len(src) &^ (r - 1)
	if full > 0 {
		st.blocks(opEnc, dst[:full], src[:full], full/r, r)
	}
	if full < len(src) {
		var b [maxRate]byte
		copy(b[:], src[full:])
		st.blocks(opEnc, b[:r], b[:r], 1, r)
		copy(dst[full:], b[:len(src)-full])
	}
}

// decrypt decrypts src into dst (as long as src, or src itself): Dec on the
// whole blocks and DecPartial on the rest. The whole blocks are those of
// Split(ct, R), not of ZeroPad(ct, R): -18's AEGIS-256 pseudo-code writes
// the latter, which would decrypt a partial block twice.
func (st *state) decrypt(dst, src []byte) {
	r := st.v.rate()
	full := len(src) &^ (r - 1)
	if full > 0 {
		st.blocks(opDec, dst[:full], src[:full], full/r, r)
	}
	if full < len(src) {
		st.decPartial(dst[full:], src[full:])
	}
}

// decPartial is DecPartial for the final len(src) < rate bytes: the
// plaintext, zero-padded, is absorbed.
func (st *state) decPartial(dst, src []byte) {
	var z, b [maxRate]byte
	st.keystream(&z)
	subtle.XORBytes(b[:], src, z[:len(src)])
	copy(dst, b[:len(src)])
	st.blocks(opAbsorb, nil, b[:st.v.rate()], 1, 0)
}

// keystream sets the first rate bytes of z to the keystream block of the
// current state: z0 || z1 of Enc for AEGIS-128*, z for AEGIS-256*, all
// lanes.
func (st *state) keystream(z *[maxRate]byte) {
	ws := st.v.wordSize()
	for k := 0; k < ws; k += 8 {
		if st.v.words == 8 {
			binary.LittleEndian.PutUint64(z[k:], st.word(6, k)^st.word(1, k)^st.word(2, k)&st.word(3, k))
			binary.LittleEndian.PutUint64(z[ws+k:], st.word(2, k)^st.word(5, k)^st.word(6, k)&st.word(7, k))
		} else {
			binary.LittleEndian.PutUint64(z[k:], st.word(1, k)^st.word(4, k)^st.word(5, k)^st.word(2, k)&st.word(3, k))
		}
	}
}

// finalize is Finalize(|ad|, |msg|).
func (st *state) finalize(adLen, msgLen uint64, tagSize int) [32]byte {
	var t tags
	st.final(&t, block{adLen * 8, msgLen * 8}, tagSize)
	return t.combine(st.v, tagSize)
}

// combine returns the tag of all lanes: the XOR of the lanes' tags.
func (t *tags) combine(v *variant, tagSize int) (tag [32]byte) {
	ws := v.wordSize()
	t0, t1 := load(t[:]), load(t[ws:])
	for i := 1; i < v.lanes; i++ {
		t0, t1 = t0.xor(load(t[16*i:])), t1.xor(load(t[ws+16*i:]))
	}
	t0.put(tag[:])
	if tagSize == 32 {
		t1.put(tag[16:])
	}
	return tag
}

// cryptGeneric is crypt on a state in memory.
func cryptGeneric(v *variant, key, nonce, ad, dst, src []byte, decrypt bool, tag []byte) {
	var st state
	st.init(v, key, nonce)
	st.absorb(ad)
	if decrypt {
		st.decrypt(dst, src)
	} else {
		st.encrypt(dst, src)
	}
	t := st.finalize(uint64(len(ad)), uint64(len(src)), len(tag))
	copy(tag, t[:])
}

// AEAD is one AEGIS variant with a fixed key and tag size. It is immutable
// and safe for concurrent use.
type AEAD struct {
	v       *variant
	key     [32]byte
	tagSize int
}

// New128L returns AEGIS-128L with a 16-byte key and a tag of 16 or 32 bytes.
func New128L(key []byte, tagSize int) (*AEAD, error) { return newAEAD(v128L, key, tagSize) }

// New128X2 returns AEGIS-128X2 with a 16-byte key and a tag of 16 or 32
// bytes.
func New128X2(key []byte, tagSize int) (*AEAD, error) { return newAEAD(v128X2, key, tagSize) }

// New128X4 returns AEGIS-128X4 with a 16-byte key and a tag of 16 or 32
// bytes.
func New128X4(key []byte, tagSize int) (*AEAD, error) { return newAEAD(v128X4, key, tagSize) }

// New256 returns AEGIS-256 with a 32-byte key and a tag of 16 or 32 bytes.
func New256(key []byte, tagSize int) (*AEAD, error) { return newAEAD(v256, key, tagSize) }

// New256X2 returns AEGIS-256X2 with a 32-byte key and a tag of 16 or 32
// bytes.
func New256X2(key []byte, tagSize int) (*AEAD, error) { return newAEAD(v256X2, key, tagSize) }

// New256X4 returns AEGIS-256X4 with a 32-byte key and a tag of 16 or 32
// bytes.
func New256X4(key []byte, tagSize int) (*AEAD, error) { return newAEAD(v256X4, key, tagSize) }

func newAEAD(v *variant, key []byte, tagSize int) (*AEAD, error) {
	if err := checkSizes(v, key, tagSize); err != nil {
		return nil, err
	}
	a := &AEAD{v: v, tagSize: tagSize}
	copy(a.key[:], key)
	return a, nil
}

func checkSizes(v *variant, key []byte, tagSize int) error {
	if len(key) != v.keySize {
		return errors.New("aegis: " + v.name + " key size " + strconv.Itoa(len(key)) + " (want " + strconv.Itoa(v.keySize) + " bytes)")
	}
	if tagSize != 16 && tagSize != 32 {
		return errors.New("aegis: tag size " + strconv.Itoa(tagSize) + " (want 16 or 32 bytes)")
	}
	return nil
}

func errNonce(v *variant, n int) error {
	return errors.New("aegis: " + v.name + " nonce size " + strconv.Itoa(n) + " (want " + strconv.Itoa(v.keySize) + " bytes)")
}

// NonceSize returns the nonce size in bytes: 16 for AEGIS-128*, 32 for
// AEGIS-256*.
func (a *AEAD) NonceSize() int { return a.v.keySize }

// Overhead returns the tag size in bytes.
func (a *AEAD) Overhead() int { return a.tagSize }

var errOpen = errors.New("aegis: message authentication failed")

// check panics on a wrong nonce size or an input too large.
func (a *AEAD) check(nonce, ad []byte, textLen int) {
	if len(nonce) != a.v.keySize {
		panic("aegis: incorrect nonce length given to " + a.v.name)
	}
	if uint64(len(ad)) > maxLen || uint64(textLen) > maxLen {
		panic("aegis: message or additional data too large")
	}
}

// Seal encrypts and authenticates plaintext, authenticates additionalData,
// and appends ciphertext || tag to dst, as cipher.AEAD. It panics if nonce
// is not NonceSize() bytes long, if the output would overlap plaintext other
// than exactly, or if it would overlap additionalData.
func (a *AEAD) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	ret, out := alias.SliceForAppend(dst, len(plaintext)+a.tagSize)
	if alias.InexactOverlap(out, plaintext) || alias.AnyOverlap(out, additionalData) {
		checkOverlap(out, plaintext, additionalData) // the tests inline, the panics do not
	}
	a.crypt(out[:len(plaintext)], nonce, plaintext, additionalData, false, out[len(plaintext):])
	return ret
}

// checkOverlap panics, as crypto/cipher's GCM does, if out overlaps in
// other than exactly or overlaps ad at all.
func checkOverlap(out, in, ad []byte) {
	if alias.InexactOverlap(out, in) {
		panic("aegis: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, ad) {
		panic("aegis: invalid buffer overlap of output and additional data")
	}
}

// Open authenticates and decrypts ciphertext || tag and appends the
// plaintext to dst, as cipher.AEAD. On failure it returns an error and
// overwrites the bytes it had written with zeros. It panics if nonce is not
// NonceSize() bytes long, if the output would overlap ciphertext || tag
// other than exactly (from its start), or if it would overlap
// additionalData.
func (a *AEAD) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	if len(ciphertext) < a.tagSize {
		if len(nonce) != a.v.keySize {
			panic("aegis: incorrect nonce length given to " + a.v.name)
		}
		return nil, errOpen
	}
	n := len(ciphertext) - a.tagSize
	return a.OpenDetached(dst, nonce, ciphertext[:n], ciphertext[n:], additionalData)
}

// SealDetached is Seal with the tag kept apart: it appends the ciphertext,
// as long as plaintext, to dst and returns the updated slice and the tag. The
// rules of Seal apply.
func (a *AEAD) SealDetached(dst, nonce, plaintext, additionalData []byte) (ciphertext, tag []byte) {
	ret, out := alias.SliceForAppend(dst, len(plaintext))
	checkOverlap(out, plaintext, additionalData)
	tag = make([]byte, a.tagSize)
	a.crypt(out, nonce, plaintext, additionalData, false, tag)
	return ret, tag
}

// OpenDetached is Open with the tag kept apart: it authenticates ciphertext
// and additionalData against tag and appends the plaintext to dst. A tag of
// the wrong length fails to authenticate. The rules of Open apply, and the
// output must not overlap tag.
func (a *AEAD) OpenDetached(dst, nonce, ciphertext, tag, additionalData []byte) ([]byte, error) {
	ret, out := alias.SliceForAppend(dst, len(ciphertext))
	if alias.InexactOverlap(out, ciphertext) || alias.AnyOverlap(out, additionalData) {
		checkOverlap(out, ciphertext, additionalData) // as in Seal
	}
	if alias.AnyOverlap(out, tag) {
		panic("aegis: invalid buffer overlap of output and tag")
	}
	var want [32]byte
	a.crypt(out, nonce, ciphertext, additionalData, true, want[:])
	if !words.Equal(want[:a.tagSize], tag) {
		clear(out)
		return nil, errOpen
	}
	return ret, nil
}

// DecryptUnverified decrypts ciphertext (without a tag) and appends the
// plaintext to dst, and returns the updated slice together with the tag that
// sealing that plaintext with nonce and additionalData produces. It is for
// protocols that authenticate the message by other means, or compare the tag
// themselves.
//
// The plaintext is NOT authenticated. Until the caller has checked
// computedTag against the received tag in constant time (with
// crypto/subtle.ConstantTimeCompare), the plaintext must not be used or
// released: AEGIS loses its security if unverified plaintext leaks. Use
// Open or OpenDetached unless the protocol requires this.
//
// The rules of Open on nonce and buffers apply.
func (a *AEAD) DecryptUnverified(dst, nonce, ciphertext, additionalData []byte) (plaintext, computedTag []byte) {
	ret, out := alias.SliceForAppend(dst, len(ciphertext))
	checkOverlap(out, ciphertext, additionalData)
	computedTag = make([]byte, a.tagSize)
	a.crypt(out, nonce, ciphertext, additionalData, true, computedTag)
	return ret, computedTag
}

var _ cipher.AEAD = (*AEAD)(nil)
