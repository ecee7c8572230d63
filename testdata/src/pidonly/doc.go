// Package pidonly holds processes found only to be probed: the code had
// only a PID, so the fix asks safeprobe about the PID and deletes the
// os.FindProcess that nothing uses any more. Its probes are in Unix files;
// this file lets every OS load the package.
package pidonly
