"""The table speaks what happens: sentences from the one catalog, said by a speech engine
(espeak-ng) in a child process, never on the session's writer thread.

`texts` holds the sentences only speech says, `spoken` turns a command's events into
sentences (pure), `voice` runs the engine, `settings` keeps on/off, volume and quiet
hours, `announcer` listens to the session and hands sentences to the voice.
"""
