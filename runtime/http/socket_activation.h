// The two halves of the service-manager protocol that systemd defined and `fitz dev` speaks:
// a listening socket handed down as fd 3 (LISTEN_FDS), and a "READY=1" datagram once the server
// accepts (NOTIFY_SOCKET). With both, a supervisor starts the next process on the same socket
// and stops the previous one only when the next is ready, so a restart refuses no connection.
#pragma once

namespace fitz::http {

// The inherited listening socket meant for this process (LISTEN_PID is ours, LISTEN_FDS >= 1,
// fd 3 is a listening stream socket), or -1. The variables are removed so that the program's
// own children do not take the socket as theirs.
int take_inherited_listener();

// Tells the supervisor named by NOTIFY_SOCKET, if any, that the server accepts connections.
void notify_ready();

}  // namespace fitz::http
