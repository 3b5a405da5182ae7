//go:build !race

package puppetdb

const raceDetector = false
