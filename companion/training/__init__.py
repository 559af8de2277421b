"""The dice reader's training and measuring side: the renderer of synthetic dice and tables
(``render``, ``scenes``, ``fonts``) and the evaluation against labelled photos
(``evaluate``, ``speed``, ``calibrate``), used by ``models/recipe``, ``companion bench`` and
the tests. On the device only the demo uses it, to draw the rolls its replayed camera
shows."""
