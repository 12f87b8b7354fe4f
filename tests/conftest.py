from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# Two cores: keep property runs modest by default; HYPOTHESIS_PROFILE=thorough for more.
settings.register_profile("default", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
