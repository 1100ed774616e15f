"""Tables scored hands-free by a live source (``atelier serve --camera / --video / --demo``): the
setups of its tables, one table made as each of its games begins, and the boards whose reading
settled turned into scan events. What reads the frames is the caller's (``vision.live``)."""
