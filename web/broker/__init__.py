"""Many tables, one event: each table server publishes its tables to an MQTT broker and the
organisers' hub reads them from it (docs/broker.md). The local SQLite log stays the source of
truth; the broker carries copies, and the hub is a subscriber, never a second source."""
