//go:build purego || !(amd64 || arm64)

package aegis

// blocks applies op to the n blocks of src, each rate bytes long and step
// bytes apart (0: the same block n times); enc and dec write their output
// at the same offsets of dst, which may be src itself.
func (st *state) blocks(op int, dst, src []byte, n, step int) {
	st.blocksGeneric(op, dst, src, n, step)
}

// initState runs Init(key, nonce) on st, whose variant is set.
func (st *state) initState(key, nonce []byte) { st.initGeneric(key, nonce) }

// final runs Finalize's seven updates, Update(t, t) (or Update(t)) with t
// the lanes' word 2 (AEGIS-128*) or 3 (AEGIS-256*) XOR u, computed once
// before the first update, and writes the lanes' tags of tagSize bytes.
func (st *state) final(t *tags, u block, tagSize int) { st.finalGeneric(t, u, tagSize) }

// crypt checks nonce and lengths, encrypts (or decrypts) a whole message src
// into dst, which is as long or src itself, and writes the tag to tag,
// a.tagSize bytes.
func (a *AEAD) crypt(dst, nonce, src, ad []byte, decrypt bool, tag []byte) {
	a.check(nonce, ad, len(src))
	cryptGeneric(a.v, a.key[:a.v.keySize], nonce, ad, dst, src, decrypt, tag[:a.tagSize])
}
