"""Issue #26: the content types of the models that moved from ``tournaments`` follow them (their
``app_label`` becomes "registry"), so that their permissions, the users' and groups' grants of them and
the admin's history stay attached, and no second content type is made for them. On a new database
there is nothing to move (the content types are made after the migrations, under "registry")."""

from django.db import migrations

MODELS = ("club", "player", "season", "seasonclub", "transfer")


def relabel(apps, schema_editor, old: str, new: str) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    types = ContentType.objects.using(db)
    for model in MODELS:
        moving = types.filter(app_label=old, model=model).first()
        if moving is None:
            continue
        # A content type made under the new label meanwhile (a ``migrate`` that stopped between the
        # migrations makes them after it) is newer and holds nothing the old one does not: the old one,
        # with its grants and history, takes its place.
        types.filter(app_label=new, model=model).delete()
        moving.app_label = new
        moving.save(update_fields=["app_label"])


def forwards(apps, schema_editor):
    relabel(apps, schema_editor, "tournaments", "registry")


def backwards(apps, schema_editor):
    relabel(apps, schema_editor, "registry", "tournaments")


class Migration(migrations.Migration):

    dependencies = [
        ("registry", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
        # what refers to a content type, so that removing one (above) takes its rows along
        ("auth", "0012_alter_user_first_name_max_length"),
        ("admin", "0003_logentry_add_action_flag_choices"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
