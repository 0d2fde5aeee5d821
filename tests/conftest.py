"""Settings shared by every test: the time a benchmark-scale (``slow``) test may take."""

import pytest

SLOW_TIMEOUT = 3600  # seconds: five times the longest slow test (the conjecture M check, 702 s)


def pytest_collection_modifyitems(items):
    """Give each ``slow`` test that names no timeout of its own an hour instead of 300 s."""
    for item in items:
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))
