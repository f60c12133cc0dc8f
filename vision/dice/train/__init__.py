"""Development tools of the dice readers, never used by a player's command: procedural
pictures of dice (:mod:`.synth`), the hand-labelled real photos kept outside the project
(:mod:`.realset`), the training script (``python -m vision.dice.train``, needs PyTorch:
``make train-dice``) and the photo reader's confidence fit (:mod:`.confidence`)."""
