// Package puppetdb reads nodes' facts from PuppetDB: an `inventory` query (PQL, or PuppetDB's AST
// query language) over the v4 query API, each node's certname and facts (its trusted data among them).
//
// The answer is decoded as it arrives, one node at a time, so a fleet of 50,000 nodes is never
// held as one response. Facts are read with the engine's JSON reader (Ruby's JSON: exact
// integers, last duplicate key wins), so a node from PuppetDB answers as the same facts in a
// facts file would.
//
// Connections: plain HTTP, or HTTPS with the Puppet CA and a client certificate (files or PEM
// text) as PuppetDB requires, or a Puppet Enterprise RBAC token (the X-Authentication header). A
// request that cannot connect is tried again (connection errors only: an answer, even an error,
// is final); a server that says nothing for the timeout, or takes WholeQueryTimeouts times it for
// the whole query, fails the query. A redirect is refused: PuppetDB's query API never redirects,
// and following one would send the token elsewhere. Every error names the URL, never the token
// or a key (an error page echoing the request has them redacted).
//
// Deactivated and expired nodes are left out as PuppetDB leaves them out; a query that asks for
// them (`node_state = "any"`) gets them.
package puppetdb
