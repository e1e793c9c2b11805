package ccm

import "encoding/binary"

// Over fae's LEA the CBC-MAC chain runs in registers (EncryptWords), one
// block waiting for the last, and the keystream runs apart from it on LEA's
// bulk CTR kernel, many blocks per call.

// macLEA absorbs the whole blocks of src into the CBC-MAC.
func (a *AEAD) macLEA(s *state, src []byte) {
	x0, x1 := binary.LittleEndian.Uint64(s.x[:8]), binary.LittleEndian.Uint64(s.x[8:])
	for ; len(src) >= blockSize; src = src[blockSize:] {
		x0, x1 = a.lea.EncryptWords(x0^binary.LittleEndian.Uint64(src[:8]), x1^binary.LittleEndian.Uint64(src[8:16]))
	}
	binary.LittleEndian.PutUint64(s.x[:8], x0)
	binary.LittleEndian.PutUint64(s.x[8:], x1)
}

// sealLEA MACs whole blocks, then encrypts them, which may overwrite src.
func (a *AEAD) sealLEA(s *state, dst, src []byte) {
	a.macLEA(s, src)
	a.ctrLEA(s, dst, src)
}

// openLEA decrypts whole blocks, then MACs the plaintext.
func (a *AEAD) openLEA(s *state, dst, src []byte) {
	a.ctrLEA(s, dst, src)
	a.macLEA(s, dst[:len(src)])
}

// ctrLEA XORs whole blocks with the keystream from counter block s.ctr on,
// and advances s.ctr past them (in its low 64 bits, as incCounter).
func (a *AEAD) ctrLEA(s *state, dst, src []byte) {
	hi, lo := binary.BigEndian.Uint64(s.ctr[:8]), binary.BigEndian.Uint64(s.ctr[8:])
	a.lea.CTRBlocks(dst, src, hi, lo)
	binary.BigEndian.PutUint64(s.ctr[8:], lo+uint64(len(src)/blockSize))
}
