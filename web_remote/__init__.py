"""The phone remote: a Flask app every player opens on their phone, served by the Pi.

`create_app(session, data_dir, config, hooks)` builds it (`hooks`: a `TableHooks`),
`serve(app, host, port)` runs it (uvicorn; live streams on its event loop), and
`join_url(app, base_url)` gives the one-time link for the screen's QR code, and
`post_warning(app, ...)` shows a table warning (the Pi's power) on every phone.
"""

from web_remote.app import create_app, post_warning
from web_remote.context import TableHooks
from web_remote.links import join_url
from web_remote.security import table_names
from web_remote.serving import ServerHandle, serve

__all__ = ["create_app", "join_url", "post_warning", "serve", "ServerHandle",
           "TableHooks", "table_names"]
