"""botbuilder's HTTP clients are cheap to build again (issue 22: acks under a burst)."""

from __future__ import annotations

from msrest.universal_http.requests import ClientRetryPolicy

from bots.teams.bot import quick_retry_policies

# msrest 0.7.1's own definition: retry every status but the 4xx (less 408) and 501/505.
MSREST_SAFE = [i for i in range(500) if i != 408] + [501, 505]


def test_the_retry_policy_keeps_its_codes_and_looks_them_up_in_a_set() -> None:
    quick_retry_policies()
    policy = ClientRetryPolicy().policy
    assert isinstance(ClientRetryPolicy.safe_codes, frozenset)
    assert policy.status_forcelist == [i for i in range(999) if i not in MSREST_SAFE]
    assert 408 in policy.status_forcelist and 503 in policy.status_forcelist and 404 not in policy.status_forcelist
    assert (policy.total, policy.backoff_factor) == (3, 0.8)
