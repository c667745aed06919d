"""The pages of the tables where the players record (their URLs; the views are ``tournament.selfscore.views``)."""
