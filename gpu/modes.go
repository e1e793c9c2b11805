package gpu

import (
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/aes"
	"github.com/faelabs/fae/internal/alias"
	"github.com/faelabs/fae/internal/batchutil"
)

// The modes' host side: the GPU takes the whole blocks, the CPU the
// per-message steps (nonce, offsets at the ends, final partial block, tag)
// with fae's AES, as the CPU packages ctr, ocb and raocb do, so the output
// is theirs byte for byte. The offset and mask logic is restated here
// because those packages keep theirs unexported; the tests pin both to the
// same bytes.

// maxLaunchBlocks bounds the blocks of one engine.run, whose block indices
// are 32-bit; 1<<30 also fits a 32-bit int.
const maxLaunchBlocks = 1 << 30

type block = [16]byte

func xor16(x, y block) block {
	var z block
	subtle.XORBytes(z[:], x[:], y[:])
	return z
}

func padded(p []byte) block {
	var x block
	copy(x[:], p)
	x[len(p)] = 0x80
	return x
}

func encryptBlock(b *aes.Block, x block) block {
	b.Encrypt(x[:], x[:])
	return x
}

func encKeys(b *aes.Block) []byte { return b.EncKeys()[:16*(b.Rounds()+1)] }
func decKeys(b *aes.Block) []byte { return b.DecKeys()[:16*(b.Rounds()+1)] }

// keying is what the kernels take of a key.
type keying struct {
	b      *aes.Block
	tables bool
	// slices is the bitsliced kernels' part of aux, from auxKeys on; nil
	// with the table kernels.
	slices []byte
}

// newKeying returns b's keying under cfg; extra are RAOCB's R1 and R2.
func newKeying(b *aes.Block, cfg config, extra ...block) keying {
	if cfg.tables {
		return keying{b: b, tables: true}
	}
	return keying{b: b, slices: sliceKeys(encKeys(b), extra...)}
}

// sliceKeys returns the bitsliced round keys (sliced.go): the 16-byte keys
// of keys, then extra, each bit widened to a 32-bit slice, with 0x63 added
// to every byte of each but the first.
func sliceKeys(keys []byte, extra ...block) []byte {
	out := make([]byte, auxTotal-auxKeys)
	for _, x := range extra {
		keys = append(keys[:len(keys):len(keys)], x[:]...)
	}
	for i := range len(keys) / 16 {
		r := i
		if i >= len(keys)/16-len(extra) {
			r = auxR1 + i - (len(keys)/16 - len(extra))
		}
		for j := range 16 {
			x := keys[16*i+j]
			if r > 0 {
				x ^= 0x63
			}
			for t := range 8 {
				binary.LittleEndian.PutUint32(out[r*sliceBytes+4*(8*j+t):], -uint32(x>>t&1))
			}
		}
	}
	return out
}

// kernel returns the kernel of o and m for this key.
func (k *keying) kernel(o op, m maskKind) kernel {
	if k.tables {
		return kernel{op: o, mask: m, rounds: k.b.Rounds()}
	}
	return kernel{op: o, mask: m, sliced: true}
}

// params returns p_k for op o: the round keys of the table kernels (the
// equivalent inverse cipher's to decrypt) or the bitsliced kernels' number
// of rounds, then consts.
func (k *keying) params(o op, consts ...block) *[kBytes]byte {
	switch {
	case !k.tables:
		var r [4]byte
		binary.LittleEndian.PutUint32(r[:], uint32(k.b.Rounds()))
		return kernelParams(r[:], consts...)
	case o == opDec:
		return kernelParams(decKeys(k.b), consts...)
	}
	return kernelParams(encKeys(k.b), consts...)
}

// aux returns the kernels' aux: tables (OCB's, or nil), then the
// bitsliced round keys where they are used.
func (k *keying) aux(tables []byte) []byte {
	if k.tables {
		return tables
	}
	a := make([]byte, auxKeys, auxTotal)
	copy(a, tables)
	return append(a, k.slices...)
}

// kernelParams is the kernels' p_k: the round keys, then the constants.
func kernelParams(keys []byte, consts ...block) *[kBytes]byte {
	var k [kBytes]byte
	copy(k[:], keys)
	for i, c := range consts {
		copy(k[kConst+16*i:], c[:])
	}
	return &k
}

// ctrStream is AES-CTR with a 128-bit big-endian counter that wraps, as
// crypto/cipher.NewCTR and fae's ctr package.
type ctrStream struct {
	e   *engine
	b   *aes.Block
	key keying
	aux []byte
	ctr block // next counter block
	ks  block // keystream of the block before ctr
	off int   // bytes of ks already used
}

func newCTR(e *engine, key, iv []byte, cfg config) (cipher.Stream, error) {
	b, err := aes.New(key)
	if err != nil {
		return nil, fmt.Errorf("gpu: %w", err)
	}
	if len(iv) != aes.BlockSize {
		return nil, errors.New("gpu: IV length must equal the block size (16 bytes)")
	}
	s := &ctrStream{e: e, b: b, key: newKeying(b, cfg), off: aes.BlockSize}
	s.aux = s.key.aux(nil)
	copy(s.ctr[:], iv)
	return s, nil
}

// XORKeyStream XORs src with the keystream, as cipher.Stream. It panics if
// the GPU fails, since cipher.Stream cannot return an error.
func (s *ctrStream) XORKeyStream(dst, src []byte) {
	if len(dst) < len(src) {
		panic("gpu: output smaller than input")
	}
	dst = dst[:len(src)]
	if alias.InexactOverlap(dst, src) {
		panic("gpu: invalid buffer overlap")
	}
	if s.off < aes.BlockSize {
		n := subtle.XORBytes(dst, src, s.ks[s.off:])
		s.off += n
		dst, src = dst[n:], src[n:]
	}
	k := s.key.kernel(opCTR, maskNone)
	for len(src) >= aes.BlockSize {
		n := min(len(src)/aes.BlockSize, maxLaunchBlocks)
		var c0 block
		hi, lo := binary.BigEndian.Uint64(s.ctr[:8]), binary.BigEndian.Uint64(s.ctr[8:])
		binary.LittleEndian.PutUint64(c0[:8], hi)
		binary.LittleEndian.PutUint64(c0[8:], lo)
		if _, err := s.e.run(k, s.aux, s.key.params(opCTR, c0), dst[:16*n], src[:16*n], 0); err != nil {
			panic(fmt.Errorf("gpu: CTR failed: %w", err))
		}
		lo, c := bits.Add64(lo, uint64(n), 0)
		binary.BigEndian.PutUint64(s.ctr[:8], hi+c)
		binary.BigEndian.PutUint64(s.ctr[8:], lo)
		dst, src = dst[16*n:], src[16*n:]
	}
	if len(src) > 0 {
		s.ks = encryptBlock(s.b, s.ctr)
		lo, c := bits.Add64(binary.BigEndian.Uint64(s.ctr[8:]), 1, 0)
		binary.BigEndian.PutUint64(s.ctr[:8], binary.BigEndian.Uint64(s.ctr[:8])+c)
		binary.BigEndian.PutUint64(s.ctr[8:], lo)
		s.off = subtle.XORBytes(dst, src, s.ks[:])
	}
}

// AEAD parameters of NewOCB and NewRAOCB: the packages' defaults.
const (
	nonceSize = 12
	tagSize   = 16
)

var errOpen = errors.New("gpu: message authentication failed")

// ocbAEAD is AES-OCB3 (RFC 7253) with 12-byte nonces and 16-byte tags.
type ocbAEAD struct {
	e              *engine
	b              *aes.Block
	ks             keying
	lStar, lDollar block
	l              [32]block // L_0..L_31: block indices below 2^32
}

func newOCB(e *engine, key []byte, cfg config) (batch.AEAD, error) {
	b, err := aes.New(key)
	if err != nil {
		return nil, fmt.Errorf("gpu: %w", err)
	}
	a := &ocbAEAD{e: e, b: b, ks: newKeying(b, cfg)}
	a.lStar = encryptBlock(b, block{})
	a.lDollar = double(a.lStar)
	l := double(a.lDollar)
	for i := range a.l {
		a.l[i], l = l, double(l)
	}
	return a, nil
}

// double multiplies by x in GF(2^128) (RFC 7253), without a branch on the
// secret top bit.
func double(x block) block {
	hi, lo := binary.BigEndian.Uint64(x[:8]), binary.BigEndian.Uint64(x[8:])
	carry := hi >> 63
	binary.BigEndian.PutUint64(x[:8], hi<<1|lo>>63)
	binary.BigEndian.PutUint64(x[8:], lo<<1^0x87&-carry)
	return x
}

func (a *ocbAEAD) NonceSize() int { return nonceSize }
func (a *ocbAEAD) Overhead() int  { return tagSize }

// offset0 is Offset_0 of RFC 7253, Section 4.2, for a 128-bit tag.
func (a *ocbAEAD) offset0(nonce []byte) block {
	var n block
	n[0] = tagSize * 8 % 128 << 1
	n[15-len(nonce)] |= 1
	copy(n[16-len(nonce):], nonce)
	bottom := int(n[15] & 63)
	n[15] &^= 63
	ktop := encryptBlock(a.b, n)
	var stretch [24]byte
	copy(stretch[:], ktop[:])
	for i := range 8 {
		stretch[16+i] = ktop[i] ^ ktop[i+1]
	}
	// bottom comes from the public nonce.
	var off block
	sb, sh := bottom/8, uint(bottom%8)
	for i := range off {
		off[i] = stretch[i+sb]<<sh | stretch[i+sb+1]>>(8-sh)
	}
	return off
}

// offsetAt returns Offset_i from Offset_0 through the Gray code of i, as
// the kernels do.
func (a *ocbAEAD) offsetAt(off block, i uint64) block {
	for g := i ^ i>>1; g != 0; g &= g - 1 {
		off = xor16(off, a.l[bits.TrailingZeros64(g)])
	}
	return off
}

// blocks runs an OCB kernel over the whole blocks of src (indices 1, 2, ...)
// from off0 and returns the sum and the last block's offset.
func (a *ocbAEAD) blocks(o op, dst, src []byte, off0 block) (block, block, error) {
	n := uint64(len(src) / 16)
	if n == 0 {
		return block{}, off0, nil
	}
	// The kernels' tables (ptx.go, maskOCB): L_j, M_j = L_{j+5} ^ L_4, and
	// G_r = Offset_0 ^ the L_j of the low five bits of r's Gray code.
	aux := make([]byte, auxSize)
	for j := range a.l {
		copy(aux[auxL+16*j:], a.l[j][:])
		if j+5 < len(a.l) {
			m := xor16(a.l[j+5], a.l[4])
			copy(aux[auxM+16*j:], m[:])
		}
	}
	for r := range uint64(32) {
		g := a.offsetAt(off0, r)
		copy(aux[auxG+16*r:], g[:])
	}
	sum, err := a.e.run(a.ks.kernel(o, maskOCB), a.ks.aux(aux), a.ks.params(o), dst, src, 1)
	return sum, a.offsetAt(off0, n), err
}

// maxOCBBlocks keeps block indices in 32 bits (L_0..L_31 suffice).
const maxOCBBlocks = 1<<32 - 1

// The batches loop over single messages, each a launch or more: one launch
// for many messages is not done yet.
var (
	ocbBatch = batchutil.Spec{Pkg: "gpu", NonceSize: nonceSize, TagSize: tagSize,
		Fits: func(m, n int) bool { return uint64(m)/16 <= maxOCBBlocks && uint64(n)/16 <= maxOCBBlocks }}
	raocbBatch = batchutil.Spec{Pkg: "gpu", NonceSize: nonceSize, TagSize: tagSize,
		Fits: func(m, n int) bool { return fits(uint64(m), uint64(n)) }}
)

// SealBatch seals every message as Seal would (batch.AEAD).
func (a *ocbAEAD) SealBatch(msgs []batch.Message) { batchutil.Seal(a, ocbBatch, msgs) }

// OpenBatch opens every message as Open would (batch.AEAD).
func (a *ocbAEAD) OpenBatch(msgs []batch.Message) bool { return batchutil.Open(a, ocbBatch, msgs) }

func (a *ocbAEAD) Seal(dst, nonce, plaintext, ad []byte) []byte {
	if len(nonce) != nonceSize {
		panic("gpu: incorrect nonce length given to OCB")
	}
	if uint64(len(plaintext))/16 > maxOCBBlocks || uint64(len(ad))/16 > maxOCBBlocks {
		panic("gpu: OCB message or associated data too long (2^32 blocks or more)")
	}
	ret, out := alias.SliceForAppend(dst, len(plaintext)+tagSize)
	if alias.InexactOverlap(out, plaintext) {
		panic("gpu: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, ad) {
		panic("gpu: invalid buffer overlap of output and additional data")
	}
	full := len(plaintext) &^ 15
	sum, off, err := a.blocks(opEnc, out[:full], plaintext[:full], a.offset0(nonce))
	if err != nil {
		panic(fmt.Errorf("gpu: OCB failed: %w", err))
	}
	if p := plaintext[full:]; len(p) > 0 {
		off = xor16(off, a.lStar)
		sum = xor16(sum, padded(p))
		pad := encryptBlock(a.b, off)
		subtle.XORBytes(out[full:], p, pad[:])
	}
	h, err := a.hash(ad)
	if err != nil {
		panic(fmt.Errorf("gpu: OCB failed: %w", err))
	}
	tag := xor16(encryptBlock(a.b, xor16(xor16(sum, off), a.lDollar)), h)
	copy(out[len(plaintext):], tag[:])
	return ret
}

func (a *ocbAEAD) Open(dst, nonce, ciphertext, ad []byte) ([]byte, error) {
	if len(nonce) != nonceSize {
		panic("gpu: incorrect nonce length given to OCB")
	}
	if len(ciphertext) < tagSize {
		return nil, errOpen
	}
	n := len(ciphertext) - tagSize
	if uint64(n)/16 > maxOCBBlocks || uint64(len(ad))/16 > maxOCBBlocks {
		return nil, errors.New("gpu: OCB message or associated data too long (2^32 blocks or more)")
	}
	ret, out := alias.SliceForAppend(dst, n)
	if alias.InexactOverlap(out, ciphertext) {
		panic("gpu: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, ad) {
		panic("gpu: invalid buffer overlap of output and additional data")
	}
	full := n &^ 15
	sum, off, err := a.blocks(opDec, out[:full], ciphertext[:full], a.offset0(nonce))
	if err != nil {
		clear(out)
		return nil, err
	}
	if c := ciphertext[full:n]; len(c) > 0 {
		off = xor16(off, a.lStar)
		pad := encryptBlock(a.b, off)
		subtle.XORBytes(out[full:], c, pad[:])
		sum = xor16(sum, padded(out[full:]))
	}
	h, err := a.hash(ad)
	if err != nil {
		clear(out)
		return nil, err
	}
	tag := xor16(encryptBlock(a.b, xor16(xor16(sum, off), a.lDollar)), h)
	if subtle.ConstantTimeCompare(tag[:], ciphertext[n:]) != 1 {
		clear(out)
		return nil, errOpen
	}
	return ret, nil
}

// hash is HASH(K, A) of RFC 7253, Section 4.1.
func (a *ocbAEAD) hash(ad []byte) (block, error) {
	full := len(ad) &^ 15
	sum, off, err := a.blocks(opHash, nil, ad[:full], block{})
	if rest := ad[full:]; len(rest) > 0 {
		off = xor16(off, a.lStar)
		sum = xor16(sum, encryptBlock(a.b, xor16(padded(rest), off)))
	}
	return sum, err
}

// raocbAEAD is RAOCB (docs/raocb.md, fae profile v1) with 12-byte nonces
// and 16-byte tags.
type raocbAEAD struct {
	e          *engine
	b          *aes.Block
	ks         keying
	aux        []byte
	r1, r2, la block
}

// maxIndex bounds RAOCB's mask indices (the reduced domain).
const maxIndex = 1 << 30

func newRAOCB(e *engine, key []byte, cfg config) (batch.AEAD, error) {
	b, err := aes.New(key)
	if err != nil {
		return nil, fmt.Errorf("gpu: %w", err)
	}
	a := &raocbAEAD{e: e, b: b}
	a.r1 = encryptBlock(b, block{2})
	a.r2 = encryptBlock(b, block{3})
	a.la = encryptBlock(b, block{4})
	a.ks = newKeying(b, cfg, a.r1, a.r2)
	a.aux = a.ks.aux(nil)
	return a, nil
}

func (a *raocbAEAD) NonceSize() int { return nonceSize }
func (a *raocbAEAD) Overhead() int  { return tagSize }

// SealBatch seals every message as Seal would (batch.AEAD).
func (a *raocbAEAD) SealBatch(msgs []batch.Message) { batchutil.Seal(a, raocbBatch, msgs) }

// OpenBatch opens every message as Open would (batch.AEAD).
func (a *raocbAEAD) OpenBatch(msgs []batch.Message) bool { return batchutil.Open(a, raocbBatch, msgs) }

func (a *raocbAEAD) base(nonce []byte) block {
	var n block
	n[0] = tagSize * 8 % 128 << 1
	n[15-len(nonce)] |= 1
	copy(n[16-len(nonce):], nonce)
	return encryptBlock(a.b, n)
}

// delta is Δ(x, i) = AESENC(AESENC(x ⊞ i, R1), R2).
func (a *raocbAEAD) delta(x block, i uint64) block {
	for j := 0; j < 16; j += 4 {
		binary.BigEndian.PutUint32(x[j:], binary.BigEndian.Uint32(x[j:])+uint32(i))
	}
	aes.Round(x[:], x[:], a.r1[:])
	aes.Round(x[:], x[:], a.r2[:])
	return x
}

func (a *raocbAEAD) encryptMasked(base block, i uint64, in block) block {
	return encryptBlock(a.b, xor16(in, a.delta(base, i)))
}

// fits reports whether a message of m bytes and associated data of n bytes
// keep every index below 2^30: the tag uses m'+3 for m' blocks, an AD's
// final partial block a+1 after a full ones.
func fits(m, n uint64) bool {
	a := n / 16
	if n%16 != 0 {
		a += 1
	}
	return (m+15)/16 <= maxIndex-4 && a < maxIndex
}

func (a *raocbAEAD) blocks(o op, dst, src []byte, base block) (block, error) {
	if len(src) == 0 {
		return block{}, nil
	}
	return a.e.run(a.ks.kernel(o, maskRAOCB), a.aux, a.ks.params(o, base, a.r1, a.r2), dst, src, 0)
}

func (a *raocbAEAD) Seal(dst, nonce, plaintext, ad []byte) []byte {
	if len(nonce) != nonceSize {
		panic("gpu: incorrect nonce length given to RAOCB")
	}
	if !fits(uint64(len(plaintext)), uint64(len(ad))) {
		panic("gpu: RAOCB message or associated data too long (over 2^30 blocks)")
	}
	ret, out := alias.SliceForAppend(dst, len(plaintext)+tagSize)
	if alias.InexactOverlap(out, plaintext) {
		panic("gpu: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, ad) {
		panic("gpu: invalid buffer overlap of output and additional data")
	}
	b := a.base(nonce)
	full := len(plaintext) &^ 15
	sum, err := a.blocks(opEnc, out[:full], plaintext[:full], b)
	if err != nil {
		panic(fmt.Errorf("gpu: RAOCB failed: %w", err))
	}
	f := uint64(full / 16)
	m := f
	if p := plaintext[full:]; len(p) > 0 {
		m++
		pad := encryptBlock(a.b, a.delta(b, f+1))
		sum = xor16(sum, padded(p))
		subtle.XORBytes(out[full:], p, pad[:])
	}
	h, err := a.hash(ad)
	if err != nil {
		panic(fmt.Errorf("gpu: RAOCB failed: %w", err))
	}
	tag := xor16(a.encryptMasked(b, m+3, sum), h)
	copy(out[len(plaintext):], tag[:])
	return ret
}

func (a *raocbAEAD) Open(dst, nonce, ciphertext, ad []byte) ([]byte, error) {
	if len(nonce) != nonceSize {
		panic("gpu: incorrect nonce length given to RAOCB")
	}
	if len(ciphertext) < tagSize {
		return nil, errOpen
	}
	n := len(ciphertext) - tagSize
	if !fits(uint64(n), uint64(len(ad))) {
		return nil, errors.New("gpu: RAOCB message or associated data too long (over 2^30 blocks)")
	}
	ret, out := alias.SliceForAppend(dst, n)
	if alias.InexactOverlap(out, ciphertext) {
		panic("gpu: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, ad) {
		panic("gpu: invalid buffer overlap of output and additional data")
	}
	b := a.base(nonce)
	full := n &^ 15
	sum, err := a.blocks(opDec, out[:full], ciphertext[:full], b)
	if err != nil {
		clear(out)
		return nil, err
	}
	f := uint64(full / 16)
	m := f
	if c := ciphertext[full:n]; len(c) > 0 {
		m++
		pad := encryptBlock(a.b, a.delta(b, f+1))
		subtle.XORBytes(out[full:], c, pad[:])
		sum = xor16(sum, padded(out[full:]))
	}
	h, err := a.hash(ad)
	if err != nil {
		clear(out)
		return nil, err
	}
	tag := xor16(a.encryptMasked(b, m+3, sum), h)
	if subtle.ConstantTimeCompare(tag[:], ciphertext[n:]) != 1 {
		clear(out)
		return nil, errOpen
	}
	return ret, nil
}

// hash is HASH(A) of RAOCB.
func (a *raocbAEAD) hash(ad []byte) (block, error) {
	full := len(ad) &^ 15
	sum, err := a.blocks(opHash, nil, ad[:full], a.la)
	if rest := ad[full:]; len(rest) > 0 {
		sum = xor16(sum, a.encryptMasked(a.la, uint64(full/16)+1, padded(rest)))
	}
	return sum, err
}
