//go:build race

package puppetdb

// raceDetector: the test binary runs under the race detector.
const raceDetector = true
