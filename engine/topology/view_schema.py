"""The JSON Schema of a topology view (State.view), checked against every view in the conformance tests."""

VIEW = {"title": "TopologyView", "type": "object"}
