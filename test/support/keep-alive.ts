/**
 * How long the tests' HTTP servers (Scribe's, the GitHub and model stand-ins) keep an idle keep-alive connection. A
 * test process that blocks for seconds (a commit of many files) can let Node's default 5 s pass unnoticed on the
 * client side: fetch then sends on a pooled connection the server has just closed, and gets ECONNRESET. Longer than
 * any test, so a server never closes a connection a client may still reuse; servers close idle connections on close.
 */
export const TEST_KEEP_ALIVE_SECONDS = 600;
