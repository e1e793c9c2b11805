package aegis

import "hash"

// NewMAC128L returns AEGISMAC-128L (draft Section 8.1) with a 16-byte key
// and nonce and a 16- or 32-byte tag, as a hash.Hash whose Sum appends the
// tag.
//
// AEGISMAC is a MAC, not a hash: with a known key, colliding inputs are easy
// to craft, and its tags are not uniformly random, so they must not serve
// as keys. Unlike the AEAD, it allows one (key, nonce) pair for many inputs.
func NewMAC128L(key, nonce []byte, tagSize int) (hash.Hash, error) {
	return newMAC(v128L, key, nonce, tagSize)
}

// NewMAC128X2 returns AEGISMAC-128X2 (draft Section 8.3, degree 2), as
// NewMAC128L.
func NewMAC128X2(key, nonce []byte, tagSize int) (hash.Hash, error) {
	return newMAC(v128X2, key, nonce, tagSize)
}

// NewMAC128X4 returns AEGISMAC-128X4 (draft Section 8.3, degree 4), as
// NewMAC128L.
func NewMAC128X4(key, nonce []byte, tagSize int) (hash.Hash, error) {
	return newMAC(v128X4, key, nonce, tagSize)
}

// NewMAC256 returns AEGISMAC-256 (draft Section 8.2) with a 32-byte key and
// nonce, as NewMAC128L.
func NewMAC256(key, nonce []byte, tagSize int) (hash.Hash, error) {
	return newMAC(v256, key, nonce, tagSize)
}

// NewMAC256X2 returns AEGISMAC-256X2 (draft Section 8.4, degree 2), as
// NewMAC256.
func NewMAC256X2(key, nonce []byte, tagSize int) (hash.Hash, error) {
	return newMAC(v256X2, key, nonce, tagSize)
}

// NewMAC256X4 returns AEGISMAC-256X4 (draft Section 8.4, degree 4), as
// NewMAC256.
func NewMAC256X4(key, nonce []byte, tagSize int) (hash.Hash, error) {
	return newMAC(v256X4, key, nonce, tagSize)
}

// mac absorbs whole blocks as they come and keeps the rest in buf.
type mac struct {
	start   state // after Init, for Reset
	st      state
	buf     [maxRate]byte
	n       int    // bytes in buf
	total   uint64 // bytes written
	tagSize int
}

func newMAC(v *variant, key, nonce []byte, tagSize int) (hash.Hash, error) {
	if err := checkSizes(v, key, tagSize); err != nil {
		return nil, err
	}
	if len(nonce) != v.keySize {
		return nil, errNonce(v, len(nonce))
	}
	m := &mac{tagSize: tagSize}
	m.start.init(v, key, nonce)
	m.st = m.start
	return m, nil
}

func (m *mac) Size() int      { return m.tagSize }
func (m *mac) BlockSize() int { return m.st.v.rate() }

func (m *mac) Reset() {
	m.st, m.n, m.total = m.start, 0, 0
}

// Write absorbs p. It panics if the data written since the last Reset
// exceed 2^61-1 bytes.
func (m *mac) Write(p []byte) (int, error) {
	if uint64(len(p)) > maxLen-m.total {
		panic("aegis: MAC input too large")
	}
	m.total += uint64(len(p))
	n, r := len(p), m.st.v.rate()
	if m.n > 0 {
		k := copy(m.buf[m.n:r], p)
		m.n += k
		p = p[k:]
		if m.n < r {
			return n, nil
		}
		m.st.blocks(opAbsorb, nil, m.buf[:r], 1, r)
		m.n = 0
	}
	full := len(p) &^ (r - 1)
	if full > 0 {
		m.st.blocks(opAbsorb, nil, p[:full], full/r, r)
	}
	m.n = copy(m.buf[:], p[full:])
	return n, nil
}

// Sum appends the tag of the data written so far to b; the MAC can go on
// absorbing.
func (m *mac) Sum(b []byte) []byte {
	st := m.st
	st.absorb(m.buf[:m.n])
	tag := st.finalizeMAC(m.total, m.tagSize)
	return append(b, tag[:m.tagSize]...)
}

// finalizeMAC is FinalizeMac(|data|) (draft Sections 8.3.2 and 8.4.2),
// which for one lane is Finalize(|data|, tag_len_bits). With more lanes,
// the lanes' tags are absorbed into lane 0 (all of them for AEGIS-128X with
// 16-byte tags, those of lanes 1..D-1 otherwise), lane 0 is finalized again
// with LE64(D) || LE64(tag_len_bits), and its tag is the result. The other
// lanes absorb zeros and their own words and are not used anymore.
func (st *state) finalizeMAC(dataLen uint64, tagSize int) (tag [32]byte) {
	v := st.v
	var t tags
	st.final(&t, block{dataLen * 8, uint64(tagSize) * 8}, tagSize)
	ws := v.wordSize()
	if v.lanes > 1 {
		st.absorbLaneTags(&t, tagSize)
		st.final(&t, block{uint64(v.lanes), uint64(tagSize) * 8}, tagSize)
	}
	copy(tag[:16], t[:16])
	copy(tag[16:], t[ws:ws+16])
	return tag
}

// absorbLaneTags absorbs the lanes' tags t into lane 0: 32 bytes a block
// for AEGIS-128X (16 in lane 0 of M0 and 16 in lane 0 of M1), 16 bytes a
// block for AEGIS-256X, so at most three blocks of 128 bytes or six of 64.
func (st *state) absorbLaneTags(t *tags, tagSize int) {
	v := st.v
	ws, r := v.wordSize(), v.rate()
	first := 1
	if v.words == 8 && tagSize == 16 {
		first = 0
	}
	var blk [6 * 64]byte
	n, half := 0, 0 // blocks, and halves of the current block filled
	for i := first; i < v.lanes; i++ {
		for h := range tagSize / 16 {
			x := t[h*ws+16*i : h*ws+16*i+16]
			if v.words == 6 {
				copy(blk[n*r:], x)
				n++
				continue
			}
			copy(blk[n*r+half*ws:], x)
			if half++; half == 2 {
				n, half = n+1, 0
			}
		}
	}
	st.blocks(opAbsorb, nil, blk[:n*r], n, r)
}
