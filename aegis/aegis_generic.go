package aegis

import (
	"crypto/subtle"

	"github.com/faelabs/fae/internal/aes"
)

// The portable kernels work on all lanes at once and run every AES round on
// the constant-time bitsliced code of internal/aes.

// blocksGeneric is state.blocks.
func (st *state) blocksGeneric(op int, dst, src []byte, n, step int) {
	r := st.v.rate()
	var m, z [maxRate]byte
	for b := range n {
		blk := src[b*step : b*step+r]
		switch op {
		case opEnc:
			st.keystream(&z)
			copy(m[:r], blk)
			subtle.XORBytes(dst[b*step:b*step+r], blk, z[:r])
		case opDec:
			st.keystream(&z)
			subtle.XORBytes(m[:r], blk, z[:r])
			copy(dst[b*step:b*step+r], m[:r])
		default:
			copy(m[:r], blk)
		}
		st.update(&m)
	}
}

// update is Update(M0, M1) (Update(M) for AEGIS-256*) for all lanes, with
// M0 || M1 (M) in m: word j becomes AESRound(word j-1, word j ^ M), where M
// is M0 for word 0, M1 for word 4 of AEGIS-128*, and zero otherwise.
func (st *state) update(m *[maxRate]byte) {
	v := st.v
	ws := v.wordSize()
	size := v.words * ws
	var in, rk [maxState]byte
	copy(in[:ws], st.s[size-ws:size])
	copy(in[ws:size], st.s[:size-ws])
	copy(rk[:size], st.s[:size])
	subtle.XORBytes(rk[:ws], rk[:ws], m[:ws])
	if v.words == 8 {
		subtle.XORBytes(rk[4*ws:5*ws], rk[4*ws:5*ws], m[ws:2*ws])
	}
	aes.Round(st.s[:size], in[:size], rk[:size])
}

// initGeneric is state.initState: Init(key, nonce). Each lane starts from
// the same words; before every update, lane i's context block is XORed into
// words 3 and 7 (3 and 5 for AEGIS-256*).
func (st *state) initGeneric(key, nonce []byte) {
	v := st.v
	ctx := &v.ctx
	ws := v.wordSize()
	var w [maxWords]block
	var m [4][maxRate]byte // the update inputs, for all lanes
	k0, n0 := load(key), load(nonce)
	if v.words == 8 {
		kn := k0.xor(n0)
		w = [maxWords]block{kn, c1, c0, c1, kn, k0.xor(c0), k0.xor(c1), k0.xor(c0)}
		for i := range v.lanes {
			n0.put(m[0][16*i:])
			k0.put(m[0][ws+16*i:])
		}
	} else {
		k1, n1 := load(key[16:]), load(nonce[16:])
		w = [maxWords]block{k0.xor(n0), k1.xor(n1), c1, c0, k0.xor(c0), k1.xor(c1)}
		for i := range v.lanes {
			k0.put(m[0][16*i:])
			k1.put(m[1][16*i:])
			w[0].put(m[2][16*i:])
			w[1].put(m[3][16*i:])
		}
	}
	for j := range v.words {
		for i := range v.lanes {
			w[j].put(st.s[j*ws+16*i:])
		}
	}
	update := func(m *[maxRate]byte) {
		subtle.XORBytes(st.s[3*ws:4*ws], st.s[3*ws:4*ws], ctx[:ws])
		subtle.XORBytes(st.s[(v.words-1)*ws:v.words*ws], st.s[(v.words-1)*ws:v.words*ws], ctx[:ws])
		st.update(m)
	}
	if v.words == 8 {
		for range 10 {
			update(&m[0])
		}
		return
	}
	for range 4 {
		for i := range m {
			update(&m[i])
		}
	}
}

// finalGeneric is state.final.
func (st *state) finalGeneric(t *tags, u block, tagSize int) {
	v := st.v
	ws, j := v.wordSize(), 3
	if v.words == 8 {
		j = 2
	}
	var m [maxRate]byte
	for i := range v.lanes {
		x := st.lane(j, i).xor(u)
		x.put(m[16*i:])
		if v.words == 8 {
			x.put(m[ws+16*i:])
		}
	}
	for range 7 {
		st.update(&m)
	}
	// A 16-byte tag is the XOR of words 0..6 (0..5 for AEGIS-256*); a
	// 32-byte one that of the first and of the second half of the words.
	for i := range v.lanes {
		var t0, t1 block
		if tagSize == 16 {
			n := v.words
			if n == 8 {
				n = 7
			}
			for j := range n {
				t0 = t0.xor(st.lane(j, i))
			}
		} else {
			for j := range v.words / 2 {
				t0 = t0.xor(st.lane(j, i))
				t1 = t1.xor(st.lane(v.words/2+j, i))
			}
			t1.put(t[ws+16*i:])
		}
		t0.put(t[16*i:])
	}
}
