// Package doctest checks that the examples a user copies from README.md and docs/ run as they
// stand: each HCL block is written alone into an empty directory, beside the Hiera data the
// examples read (testdata/site), and initialised and planned by the real terraform (or tofu) CLI
// with the provider installed as `make install` installs it (scripts/install.sh), offline.
// recipes_test.go runs the command guide's recipes (its marked shell blocks and the hieraform
// commands of its CI jobs) as written, on a control repository of each layout (environments inside
// the repository, and an r10k control repository). The package has no code of its own: only the
// tests.
package doctest
