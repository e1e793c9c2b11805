// Package lea implements LEA, the 128-bit block cipher of the Korean
// standard KS X 3246 and of ISO/IEC 29192-2:2019, with 128-, 192- and
// 256-bit keys (24, 28 and 32 rounds), and LEA in counter mode.
//
// LEA uses only 32-bit addition, rotation and XOR, so every implementation
// here runs in constant time. Its speed comes from word slicing: a vector
// register holds the same word of many blocks, and one instruction advances
// that word in all of them. Kernels, chosen once at start-up: portable Go
// (the only code built with the purego tag), AVX2 with 8 blocks per ymm
// register set, and AVX-512 with 16 blocks per zmm register set.
//
// The cipher.Block that NewCipher returns also has the methods
//
//	EncryptBlocks(dst, src []byte)
//	DecryptBlocks(dst, src []byte)
//	EncryptWords(w0, w1 uint64) (uint64, uint64)
//
// the first two of which process any number of whole blocks (ECB) in one
// call. EncryptWords encrypts one block held in two little-endian 64-bit
// words. fae's modes (ocb.NewFromBlock, ccm.NewFromBlock, gcm.NewFromBlock)
// recognize the block and run LEA directly, OCB3 on fused kernels on amd64.
package lea

import (
	"crypto/cipher"

	"github.com/faelabs/fae/internal/lea"
)

// BlockSize is the LEA block size in bytes.
const BlockSize = 16

// KeySizeError is returned for a key that is not 16, 24 or 32 bytes long.
type KeySizeError = lea.KeySizeError

// NewCipher returns LEA with a 16-, 24- or 32-byte key. The result keeps no
// reference to key.
func NewCipher(key []byte) (cipher.Block, error) {
	b, err := lea.New(key)
	if err != nil {
		return nil, err
	}
	return b, nil
}
