"""The JSON Schema of a toppo view (State.view), checked against every view in the conformance tests."""

VIEW = {"title": "ToppoView", "type": "object"}
