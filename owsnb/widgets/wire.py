"""What the widgets put on the wire: their synced state, and the comm messages they send.

* :func:`widget_tree` walks every widget reachable from a root through synced traits (children,
  map layers and controls, marker icons, bqplot marks, scales and axes, layouts...).
* :func:`synced_state` collects the synced state of all of them (what a browser holds);
  :func:`scan_leaks` runs :func:`owsnb.testing.find_leaks` over it.
* :class:`MessageLog` records every comm message widgets send while it is active, with its size
  on the wire (serialised as a Jupyter message by ``jupyter_client``), so tests and benchmarks can
  see what an update costs and which widgets it touched.

Example:
    >>> import ipywidgets as W
    >>> box = W.VBox([W.HTML("hello")])
    >>> [type(w).__name__ for w in widget_tree(box) if not type(w).__name__.endswith("Layout")]
    ['VBox', 'HTML', 'HTMLStyle']
    >>> with MessageLog() as log:
    ...     box.children[0].value = "hello again"
    >>> len(log), log.comm_ids() == {box.children[0].model_id}
    (1, True)
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["widget_tree", "synced_state", "MessageLog", "Message"]


def _widgets_in(value: Any) -> Iterator[Any]:
    from ipywidgets import Widget

    if isinstance(value, Widget):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _widgets_in(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _widgets_in(v)


def widget_tree(*roots: Any) -> list[Any]:
    """Every widget reachable from *roots* through synced traits (roots first, each once)."""
    from collections import deque

    out: list[Any] = []
    seen: set[int] = set()
    todo: deque = deque(w for r in roots for w in _widgets_in(r))
    while todo:
        w = todo.popleft()
        if id(w) in seen:
            continue
        seen.add(id(w))
        out.append(w)
        for name in w.keys:
            try:
                value = getattr(w, name)
            except Exception:  # noqa: BLE001 - a trait that cannot be read holds nothing to scan
                continue
            if isinstance(value, (str, int, float, bool)) or value is None:
                continue
            todo.extend(_widgets_in(value))
    return out


def synced_state(root: Any) -> dict[str, Any]:
    """``{model_id: state}`` of every widget under *root*: all ``sync=True`` traits, serialised
    as they are sent to the browser (binary buffers decoded as text where possible)."""
    out = {}
    for w in widget_tree(root):
        out[w.model_id] = _plain(w.get_state())
    return out


def _plain(obj: Any) -> Any:
    if isinstance(obj, (bytes, bytearray, memoryview)):
        return bytes(obj).decode("utf-8", "replace")
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    if hasattr(obj, "tolist"):
        return obj.tolist()
    return obj


@dataclass(frozen=True)
class Message:
    """One comm message: its comm (widget model id), type, content and size on the wire."""

    comm_id: str
    msg_type: str
    data: Any
    nbytes: int
    content_bytes: int


class MessageLog:
    """Record the comm messages widgets send (a context manager; nests are not supported).

    ``nbytes`` counts the message as ``jupyter_client`` serialises it for the kernel's wire
    (header, parent header, metadata and content frames plus binary buffers, unsigned);
    ``content_bytes`` counts only the JSON content and buffers.
    """

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self._saved: Any = None
        self._session: Any = None

    def __enter__(self) -> MessageLog:
        import comm
        from jupyter_client.session import Session

        self._session = Session(
            key=b"owsnb-measures-signed-messages", username="owsnb"
        )  # kernels sign theirs
        cls = type(comm.create_comm(primary=False))
        self._cls = cls
        self._saved = cls.publish_msg
        log = self

        def publish_msg(
            comm_self: Any,
            msg_type: str,
            data: Any = None,
            metadata: Any = None,
            buffers: Any = None,
            **keys: Any,
        ) -> None:
            log._record(comm_self, msg_type, data, metadata, buffers)
            return log._saved(comm_self, msg_type, data, metadata, buffers, **keys)

        cls.publish_msg = publish_msg  # type: ignore[method-assign,assignment]  # recording
        return self

    def __exit__(self, *exc: Any) -> None:
        self._cls.publish_msg = self._saved  # type: ignore[method-assign]  # restored

    def _record(self, comm: Any, msg_type: str, data: Any, metadata: Any, buffers: Any) -> None:
        content: dict[str, Any] = {"data": data or {}, "comm_id": comm.comm_id}
        if msg_type == "comm_open":
            content["target_name"] = getattr(comm, "target_name", "")
        # a widget update answers a frontend message (a click): its header comes back as the parent
        parent = self._session.msg("comm_msg", content={})["header"]
        msg = self._session.msg(msg_type, content=content, parent=parent, metadata=metadata or {})
        frames = self._session.serialize(msg)
        bufs = [memoryview(b).nbytes for b in (buffers or [])]
        nbytes = sum(len(f) for f in frames) + sum(bufs)
        body = len(json.dumps(content, default=str, separators=(",", ":")).encode()) + sum(bufs)
        self.messages.append(Message(comm.comm_id, msg_type, data, nbytes, body))

    def __len__(self) -> int:
        return len(self.messages)

    @property
    def nbytes(self) -> int:
        """Total bytes on the wire."""
        return sum(m.nbytes for m in self.messages)

    @property
    def content_bytes(self) -> int:
        """Total bytes of content (JSON and buffers) without the message envelopes."""
        return sum(m.content_bytes for m in self.messages)

    def comm_ids(self) -> set[str]:
        """Model ids of the widgets that sent something."""
        return {m.comm_id for m in self.messages}

    def clear(self) -> None:
        self.messages.clear()

    def __repr__(self) -> str:
        return f"<MessageLog {len(self)} messages, {self.nbytes} bytes>"
