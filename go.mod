module github.com/faelabs/fae

go 1.26.0

require golang.org/x/sys v0.50.0

require (
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	golang.org/x/crypto v0.59.0 // indirect
)
