"""Issue #26: the clubs, players, seasons, season clubs and transfers move from ``tournaments`` to the
registry app, with every row. Only Django's record of the models moves (``SeparateDatabaseAndState``
with no database operation): the tables keep their names (``db_table``), their rows, indexes,
constraints and sequences. ``tournaments`` forgets the models in its 0010, after every foreign key of
``tournaments``, ``cup`` and ``teams`` points here (their state-only ``AlterField``s); the content types
follow in 0002, so that permissions and the admin's history stay attached."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("tournaments", "0009_publication_chain"),
    ]

    state_operations = [
        migrations.CreateModel(
            name="Club",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=100, unique=True, verbose_name="nimi")),
                ("short_name", models.CharField(blank=True, max_length=20, verbose_name="lyhenne")),
                ("town", models.CharField(blank=True, max_length=60, verbose_name="paikkakunta")),
            ],
            options={
                "verbose_name": "kerho",
                "verbose_name_plural": "kerhot",
                "db_table": "tournaments_club",
                "ordering": ["name"],
            },
        ),
        migrations.CreateModel(
            name="Player",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("first_name", models.CharField(max_length=60, verbose_name="etunimi")),
                ("last_name", models.CharField(max_length=60, verbose_name="sukunimi")),
                ("member_number", models.CharField(blank=True, max_length=20, null=True, unique=True, verbose_name="jäsennumero")),
                ("club", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="players", to="registry.club", verbose_name="kotikerho")),
            ],
            options={
                "verbose_name": "pelaaja",
                "verbose_name_plural": "pelaajat",
                "db_table": "tournaments_player",
                "ordering": ["last_name", "first_name"],
                "indexes": [models.Index(fields=["last_name", "first_name"], name="tournaments_last_na_3afdca_idx")],
                "constraints": [
                    models.CheckConstraint(condition=models.Q(models.Q(("first_name", ""), _negated=True), models.Q(("last_name", ""), _negated=True)), name="player_name_not_empty"),
                    models.CheckConstraint(condition=models.Q(("member_number", ""), _negated=True), name="player_member_number_null_not_empty"),
                ],
            },
        ),
        migrations.CreateModel(
            name="Season",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("start", models.DateField(unique=True, verbose_name="alkaa")),
                ("best_n", models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="parhaat N kisaa")),
                ("cup_version", models.PositiveBigIntegerField(default=1, editable=False)),
            ],
            options={
                "verbose_name": "kausi",
                "verbose_name_plural": "kaudet",
                "db_table": "tournaments_season",
                "ordering": ["-start"],
                "constraints": [
                    models.CheckConstraint(condition=models.Q(("start__month", 8), ("start__day", 1)), name="season_starts_first_of_august"),
                    models.CheckConstraint(condition=models.Q(("best_n__isnull", True), ("best_n__gte", 1), _connector="OR"), name="season_best_n_positive"),
                ],
            },
        ),
        migrations.CreateModel(
            name="SeasonClub",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("club", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="season_players", to="registry.club")),
                ("first_event", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to="tournaments.event")),
                ("player", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="season_clubs", to="registry.player")),
                ("season", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="player_clubs", to="registry.season")),
            ],
            options={
                "verbose_name": "kauden kerho",
                "verbose_name_plural": "kauden kerhot",
                "db_table": "tournaments_seasonclub",
                "constraints": [models.UniqueConstraint(fields=("season", "player"), name="one_club_per_player_season")],
            },
        ),
        migrations.CreateModel(
            name="Transfer",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("confirmed_on", models.DateField(verbose_name="hallituksen vahvistus")),
                ("from_club", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="registry.club", verbose_name="kerhosta")),
                ("player", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="transfers", to="registry.player")),
                ("season", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="transfers", to="registry.season")),
                ("to_club", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="registry.club", verbose_name="kerhoon")),
            ],
            options={
                "verbose_name": "seurasiirto",
                "verbose_name_plural": "seurasiirrot",
                "db_table": "tournaments_transfer",
                "constraints": [models.CheckConstraint(condition=models.Q(("from_club", models.F("to_club")), _negated=True), name="transfer_changes_club")],
            },
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations, database_operations=[]),
    ]
