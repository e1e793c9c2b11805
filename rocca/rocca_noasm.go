//go:build purego || !(amd64 || arm64)

package rocca

func (s *state) init(key *[KeySize]byte, nonce []byte) { initGeneric(s, key, nonce) }

func (s *state) finalize(adLen, mLen uint64) [TagSize]byte {
	var tag [TagSize]byte
	finalizeGeneric(s, &tag, adLen, mLen)
	return tag
}

func (s *state) absorb(src []byte) { absorbGeneric(s, src, len(src)/blockSize) }

func (s *state) encrypt(dst, src []byte) { encryptGeneric(s, dst, src) }

func (s *state) decrypt(dst, src []byte) { decryptGeneric(s, dst, src) }

// message reports that no kernel takes a whole message in one call.
func (a *AEAD) message(_, _, _, _ []byte, _ bool, _ *[TagSize]byte) bool { return false }
