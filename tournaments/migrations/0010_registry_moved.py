"""Issue #26: the clubs, players, seasons, season clubs and transfers now belong to the registry app
(``registry/migrations/0001_initial.py``). In Django's record only: the foreign keys of the events,
pairs, pair members and substitutes point at the registry's models, then ``tournaments`` forgets its
own; the tables, their rows and their constraints stay as they are (the registry's models name them).
``cup`` and ``teams`` move their own foreign keys first (their 0003, ``run_before`` this one)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0009_publication_chain"),
        ("registry", "0001_initial"),
    ]

    state_operations = [
        migrations.AlterField(
            model_name="event",
            name="season",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="events", to="registry.season", verbose_name="kausi"),
        ),
        migrations.AlterField(
            model_name="event",
            name="organising_club",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="organised_events", to="registry.club", verbose_name="järjestävä kerho"),
        ),
        migrations.AlterField(
            model_name="pair",
            name="club",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="pairs", to="registry.club", verbose_name="kerho"),
        ),
        migrations.AlterField(
            model_name="pairmember",
            name="player",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="pair_memberships", to="registry.player"),
        ),
        migrations.AlterField(
            model_name="matchsubstitute",
            name="player",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="registry.player", verbose_name="pelaaja"),
        ),
        migrations.AlterField(
            model_name="matchsubstitute",
            name="substitute",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="registry.player", verbose_name="varamies"),
        ),
        migrations.DeleteModel(name="Transfer"),
        migrations.DeleteModel(name="SeasonClub"),
        migrations.DeleteModel(name="Player"),
        migrations.DeleteModel(name="Club"),
        migrations.DeleteModel(name="Season"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations, database_operations=[]),
    ]
