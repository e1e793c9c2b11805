//go:build !linux

package raocb

func adviseHugePages([]byte) bool { return false }
