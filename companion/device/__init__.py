"""The device: what wires the camera, the button and LEDs, the network and the pages
together around the games.

- ``serve``: ``companion serve``, starting everything below and the web server;
- ``device``: the camera's rolls entering the active game, and what the table page shows;
- ``panel``: the hardware button and the LEDs (gpiozero);
- ``demo``: the embedded demo's replayed camera;
- ``config``: ``/etc/companion/config.toml``;
- ``lan`` and ``mdns``: the addresses phones open, and the name announced on the network.
"""
