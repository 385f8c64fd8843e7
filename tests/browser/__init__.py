"""Widgets rendered in real headless Chromium from their static HTML export."""
