"""What operators watch: /healthz (database, broker, worker heartbeat, beat's last run) and structured logs."""
