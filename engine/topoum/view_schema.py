"""The JSON Schema of a topoum view (State.view), checked against every view in the conformance tests."""

VIEW = {"title": "TopoumView", "type": "object"}
