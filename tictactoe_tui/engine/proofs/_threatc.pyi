"""Type stub of the compiled threat kernel (`_threatc.c`): see `threats.ThreatSearch`."""

from collections.abc import Callable, Sequence

class Kernel:
    """ThreatSearch's VCF and VCT for one board shape, with its failure and proven tables."""

    nodes: int
    limit: int
    cut: int
    table_limit: int
    words: int
    def __init__(
        self,
        size: int,
        k: int,
        lines: Sequence[Sequence[int]],
        gain: Sequence[int],
        weight: Sequence[int],
    ) -> None: ...
    def search(
        self,
        kind: int,
        x: bytes,
        o: bytes,
        side: int,
        most: int,
        max_nodes: int,
        poll: Callable[[], None] | None,
    ) -> list[int] | None: ...
    def best_gain(self, x: bytes, o: bytes, side: int, mask: bytes) -> tuple[int, int, int]: ...
    def gains(self, x: bytes, o: bytes, side: int, mask: bytes) -> list[int]: ...
    def table_sizes(self) -> tuple[int, int]: ...
